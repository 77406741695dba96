package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** The leak check itself: a buffer that is never released is reported. */
class NoLeaksTest {
    static {
        NoLeaks.install();
    }

    @Test
    void aLostBufferIsReported() throws Exception {
        NoLeaks.assertNoLeaks();
        loseABuffer();
        assertThat(NoLeaks.collectLeaks()).singleElement().asString().contains("ByteBuf leaked");
    }

    private static void loseABuffer() {
        ByteBuf lost = ByteBufAllocator.DEFAULT.directBuffer(16);
        lost.writeLong(42);
    }
}
