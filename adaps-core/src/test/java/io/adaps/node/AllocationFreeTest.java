package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.InPlacePairUpdate;
import io.adaps.api.InPlaceUpdate;
import io.adaps.api.TableSpec;
import io.adaps.api.TableView;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;

/** Pull, push, set and in-place updates allocate nothing per call, measured with the JVM's per-thread counter. */
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
            TableView a = worker.table("a");
            TableView b = worker.table("b");
            InPlaceUpdate step = (u, uo, w, wo) -> {
                u[uo] += w[wo + 1];
            };
            long[] keys = {1, 150, 99, 100};
            long[] rows = {3, 4, 5};
            long[] otherRows = {9, 3, 9};
            int[] notDone = new int[3];
            InPlacePairUpdate pairStep = (pair, u, uo, w, wo) -> u[uo] += pair;
            float[] buffer = new float[8 + 16 + 8 + 16];
            Runnable calls = () -> {
                worker.pull(keys, buffer);
                worker.push(keys, 0, 4, buffer, 0);
                worker.set(7, buffer, 0);
                b.pull(rows, 0, 3, buffer, 0);
                b.push(42, buffer, 0);
                a.updateInPlace(3, a, 9, step);
                a.updateInPlace(rows, 0, a, otherRows, 0, 3, pairStep, notDone);
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
            // 900,000 operations; a single allocation per call would be >= 14.4 MB.
            assertThat(allocated).as("bytes allocated by 900,000 operations").isLessThan(64 * 1024);
        }
    }

    /** prepareSample, pullSample and takeSample allocate nothing per call under any scheme (pool refills included). */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(io.adaps.api.SamplingScheme.class)
    void samplingAllocatesNothing(io.adaps.api.SamplingScheme scheme) {
        var threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter available");
        var counter = (com.sun.management.ThreadMXBean) threads;
        long[] counts = new long[1000];
        for (int r = 0; r < counts.length; r++) {
            counts[r] = 100_000 / (r + 1);
        }
        try (AdaPS node = AdaPS.builder().sampling(scheme).samplePool(64, 2)
                .table(TableSpec.of("w", 1000, 8).withSampling(io.adaps.api.AliasTable.unigram(counts, 0.75)))
                .build()) {
            Worker worker = node.worker();
            TableView w = worker.table("w");
            long[] keys = new long[32];
            float[] values = new float[32 * 8];
            Runnable calls = () -> {
                long clock = worker.clock();
                long first = w.prepareSample(32, clock, clock + 1);
                long second = w.prepareSample(32, clock, clock + 2);
                long third = w.prepareSample(32, clock, clock + 2);
                w.pullSample(first, keys, values);
                w.pullSample(second, keys, 0, values, 0);
                w.takeSample(third, keys, 0);
                worker.advanceClock();
            };
            for (int i = 0; i < 20_000; i++) {
                calls.run();
            }
            long thread = Thread.currentThread().getId();
            long before = counter.getThreadAllocatedBytes(thread);
            for (int i = 0; i < 50_000; i++) {
                calls.run();
            }
            long allocated = counter.getThreadAllocatedBytes(thread) - before;
            // 300,000 calls; a single allocation per call would be >= 4.8 MB.
            assertThat(allocated).as("bytes allocated by 300,000 sampling calls under %s", scheme).isLessThan(64 * 1024);
            assertThat(node.metrics().sampling().rowsPulled()).isEqualTo(70_000L * 96);
        }
    }
}
