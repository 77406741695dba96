package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
    @Test
    void readsUserPlusSystemTicksAfterANameWithSpacesAndParentheses() {
        String stat = "4242 (C2 Compiler (x)) S 1 4242 4242 0 -1 4194624 3 0 0 0 1234 56 0 0 20 0 1 0 9 0 0";

        assertThat(ThreadCpu.ticks(stat)).isEqualTo(1234 + 56);
    }

    @Test
    void countsTheSerialCollectorsPausesOnTheVmThreadAsTheCollectors() {
        assertThat(ThreadCpu.Kind.of("VM Thread")).isEqualTo(ThreadCpu.Kind.GC);
        assertThat(ThreadCpu.Kind.of("GC Thread#0")).isEqualTo(ThreadCpu.Kind.GC);
        assertThat(ThreadCpu.Kind.of("VM Periodic Tas")).isEqualTo(ThreadCpu.Kind.OTHER);
        assertThat(ThreadCpu.Kind.of("adaps-netty-0-1")).isEqualTo(ThreadCpu.Kind.TRANSPORT);
    }

    @Test
    void keepsTheTimeOfThreadsThatEnded() throws InterruptedException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        long before = Arrays.stream(ThreadCpu.now()).sum();
        Thread busy = new Thread(() -> {
            // 200 ms of this thread's processor time, however busy the machine is.
            double sink = 0;
            while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < 200_000_000L) {
                sink += Math.sqrt(sink + 1);
            }
            assertThat(sink).isPositive();
        });
        busy.start();
        busy.join();

        // The thread is gone from /proc/self/task, but its 20 ticks stay in the sum.
        assertThat(Arrays.stream(ThreadCpu.now()).sum() - before).isGreaterThanOrEqualTo(10);
    }
}
