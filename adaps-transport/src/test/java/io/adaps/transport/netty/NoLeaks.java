package io.adaps.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;

/**
 * Fails a test class if Netty's leak detector reports a {@link ByteBuf} that was never released.
 *
 * <p>Installs a leak detector factory whose detectors record every leak; it must be in place before
 * the first buffer class is initialized, which {@link #assertNoLeaks} checks. Leaks are reported when
 * a lost buffer has been garbage collected and a later allocation is tracked, so the check collects
 * garbage and allocates a few times. Tests run with {@code -Dio.netty.leakDetection.level=paranoid}
 * (see the module's pom), so every buffer is tracked.
 */
public final class NoLeaks implements AfterAllCallback {
    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static final AtomicBoolean BUFFERS_TRACKED = new AtomicBoolean();

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            @SuppressWarnings("deprecation")
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                       long maxActive) {
                ResourceLeakDetector<T> detector = new ResourceLeakDetector<>(resource, samplingInterval);
                detector.setLeakListener((type, records) -> LEAKS.add(type + " leaked:" + records));
                BUFFERS_TRACKED.compareAndSet(false, resource == ByteBuf.class);
                return detector;
            }
        });
    }

    /** Makes sure the factory is installed (loading this class does it). */
    static void install() {
        // the static initializer did it
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        assertNoLeaks();
    }

    /** Collects garbage, lets the detector report, and fails naming any leak. */
    static void assertNoLeaks() throws InterruptedException {
        assertThat(collectLeaks()).as("buffers never released").isEmpty();
    }

    /** The leaks reported since the last call, after collecting garbage. */
    static List<String> collectLeaks() throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            System.gc();
            // A pause, not a wait: the collector enqueues leaked buffers' references meanwhile, and
            // when nothing leaked there is nothing to wait for.
            Thread.sleep(20);
            ByteBufAllocator.DEFAULT.directBuffer(1).release();
            ByteBufAllocator.DEFAULT.heapBuffer(1).release();
        }
        assertThat(BUFFERS_TRACKED).as("leak detection installed before the first buffer").isTrue();
        assertThat(ResourceLeakDetector.getLevel()).isEqualTo(ResourceLeakDetector.Level.PARANOID);
        List<String> leaks = new ArrayList<>();
        String leak;
        while ((leak = LEAKS.poll()) != null) {
            leaks.add(leak);
        }
        return leaks;
    }
}
