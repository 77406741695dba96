package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.Consistency;
import io.adaps.api.TableSpec;
import io.adaps.api.Worker;
import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;
import io.adaps.testing.Concurrently;

/**
 * Issue 14: under a bounded model a worker with fewer chunks than another stopped ticking and the
 * other waited for it for ever (seen: a resumed w2v run on one node, two threads). Every node
 * agrees on the most chunks, and a worker ticks empty clocks up to it.
 */
class EpochClocksTest {
    @Test
    void nodesAgreeOnTheMostAndAWorkerWithFewerChunksTicksUpToIt() throws Exception {
        InJvmNetwork network = new InJvmNetwork();
        ConcurrentHashMap<Integer, AdaPS> nodes = new ConcurrentHashMap<>();
        AtomicIntegerArray agreed = new AtomicIntegerArray(2);
        try {
            Concurrently.run(2, Duration.ofSeconds(60), id -> nodes.put(id, AdaPS.builder()
                    .table(TableSpec.of("t", 4, 1).withConsistency(Consistency.bsp())).table(EpochClocks.spec())
                    .nodeId(id).peers(List.of("n0:1", "n1:1")).transport(new InJvmTransport(network)).build()));
            // Node 0's worker has 3 chunks, node 1's 5: under bsp node 1's would wait for ever at clock 4.
            Concurrently.run(2, Duration.ofSeconds(60), id -> {
                AdaPS node = nodes.get(id);
                try (Worker worker = node.worker()) {
                    int chunks = id == 0 ? 3 : 5;
                    int clocks = EpochClocks.agree(node, chunks);
                    agreed.set(id, clocks);
                    for (int c = 0; c < chunks; c++) {
                        worker.table("t").push(0, new float[] {1f}, 0);
                        worker.advanceClock();
                    }
                    while (worker.clock() < clocks) {
                        worker.advanceClock();
                    }
                    assertThat(worker.clock()).isEqualTo(5);
                    worker.waitSync();
                }
            });
            assertThat(agreed.get(0)).isEqualTo(5);
            assertThat(agreed.get(1)).isEqualTo(5);
        } finally {
            nodes.values().forEach(AdaPS::close);
        }
    }

    @Test
    void aNegativeCountIsRefused() {
        try (AdaPS node = AdaPS.builder().table(EpochClocks.spec()).build()) {
            assertThatThrownBy(() -> EpochClocks.agree(node, -1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("local=-1 (expected >= 0)");
        }
    }
}
