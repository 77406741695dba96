package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;

/**
 * One thread may serve the nodes of several clusters in turn (a test suite's main thread, a pooled
 * application thread), and a worker's request to its own node is handled on the worker's thread.
 * What a thread did for one cluster must not break it for the next.
 *
 * <p>Found by {@link RelocationProtocolIT}, whose single thread drives clusters of 3 and 4 nodes
 * one after the other: the per-thread free list of {@link Outbound} message builders hands out an
 * instance sized for the cluster (and maximum message size) of the node that created it, so a
 * node of a larger cluster that relinquishes a row to a node id beyond that size fails with an
 * {@link ArrayIndexOutOfBoundsException}, leaving the row marked incoming for good.
 */
class ThreadAcrossClustersTest {

    @Test
    void aThreadThatRelocatedRowsInASmallClusterDoesSoInALargerOne() throws Exception {
        moveRowZeroAwayAndBack(3);
        moveRowZeroAwayAndBack(4);
    }

    /**
     * Row 0 (home node 0) moves to the cluster's last node, then back to node 0 by a localize of
     * a worker of node 0 on this thread: node 0 serves that LOCALIZE on this thread, and has the
     * last node relinquish the row.
     */
    private static void moveRowZeroAwayAndBack(int nodes) throws Exception {
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(nodes,
                builder -> builder.table(TableSpec.of("t", 12, 2)))) {
            AdaPS home = cluster.node(0);
            AdaPS last = cluster.node(nodes - 1);
            cluster.node(nodes - 1).worker().localize(new long[] {0});
            assertThat(Internals.holdsRow(last, last.tables().get(0), 0)).as("row 0 at node %d of %d", nodes - 1, nodes).isTrue();
            cluster.node(0).worker().localize(new long[] {0});
            assertThat(Internals.holdsRow(home, home.tables().get(0), 0)).as("row 0 back at node 0 of %d", nodes).isTrue();
        }
    }
}
