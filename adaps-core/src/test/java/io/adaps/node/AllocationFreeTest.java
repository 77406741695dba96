package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;

/** Pull, push and set allocate nothing per call, measured with the JVM's per-thread counter. */
class AllocationFreeTest {

    @Test
    void localOperationsAllocateNothing() {
        var threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter available");
        var counter = (com.sun.management.ThreadMXBean) threads;
        try (AdaPS node = AdaPS.builder()
                .table(TableSpec.of("a", 100, 8))
                .table(TableSpec.of("b", 100, 16).withUpdateRule(UpdateRules.adagrad(0.1f, 1e-6f)))
                .build()) {
            Worker worker = node.worker();
            TableView b = worker.table("b");
            long[] keys = {1, 150, 99, 100};
            long[] rows = {3, 4, 5};
            float[] buffer = new float[8 + 16 + 8 + 16];
            Runnable calls = () -> {
                worker.pull(keys, buffer);
                worker.push(keys, 0, 4, buffer, 0);
                worker.set(7, buffer, 0);
                b.pull(rows, 0, 3, buffer, 0);
                b.push(42, buffer, 0);
                worker.waitFor(worker.pushAsync(keys, 1, 2, buffer, 0));
                worker.intent(keys, worker.clock(), worker.clock() + 2);
                worker.advanceClock();
            };
            for (int i = 0; i < 20_000; i++) {
                calls.run();
            }
            long thread = Thread.currentThread().getId();
            long before = counter.getThreadAllocatedBytes(thread);
            for (int i = 0; i < 100_000; i++) {
                calls.run();
            }
            long allocated = counter.getThreadAllocatedBytes(thread) - before;
            // 800,000 operations; a single allocation per call would be >= 12.8 MB.
            assertThat(allocated).as("bytes allocated by 800,000 operations").isLessThan(64 * 1024);
        }
    }
}
