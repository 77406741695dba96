package io.adaps.bench.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.Technique;
import io.adaps.api.Worker;

/** The benchmarks' TLS cluster: keytool's certificate connects two loopback nodes; closing deletes it. */
class LoopbackTlsTest {
    @Test
    void twoNodesPullOverTlsAndTheCertificateIsDeletedAfterwards() {
        Path store;
        try (LoopbackTls tls = LoopbackTls.create();
             LoopbackNodes nodes = LoopbackNodes.start(2, TableSpec.of("t", 8, 2)
                     .withInitializer(Initializers.uniform(1f, 1f, 1)), Technique.STATIC,
                     builder -> builder.tls(tls.settings()))) {
            store = tls.settings().identity();
            assertThat(store).exists();
            float[] row = new float[2];
            try (Worker worker = nodes.node(0).worker()) {
                worker.pull(nodes.firstRowOf(1), row, 0);
            }
            assertThat(row).containsExactly(1f, 1f);
        }
        assertThat(Files.exists(store)).isFalse();
    }
}
