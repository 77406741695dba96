package io.adaps.examples;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import io.adaps.api.AdaPS;

/**
 * The share of a run's data that one node trains: part {@code index} of {@code count}. Node i of
 * an N-node cluster trains part i of N, a single node part 0 of 1 (all of it); with
 * {@code --part I/N} ({@link PartOption}) a single node trains part I of N alone, exactly the
 * entries, words and random streams that node I of an N-node cluster would, with no peer to talk
 * to.
 *
 * @param index which part, {@code 0 .. count - 1}
 * @param count how many parts the data is cut into, > 0
 * @param alone whether a single node trains the part ({@code --part}), not a node of a cluster
 */
public record DataPart(int index, int count, boolean alone) {
    /**
     * Checks the parameters.
     *
     * @throws IllegalArgumentException naming the first one out of range
     */
    public DataPart {
        checkPositive(count, "count");
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("index=" + index + " (expected 0.." + (count - 1) + ")");
        }
    }

    /** The part {@code node} trains as a node of its cluster: part nodeId of clusterSize. */
    public static DataPart of(AdaPS node) {
        checkNotNull(node, "node");
        return new DataPart(node.nodeId(), node.clusterSize(), false);
    }

    /** Whether this is less than all of the data: a cluster node's share, or a part trained alone. */
    public boolean isShare() {
        return count > 1;
    }

    /** How a run's header names it: {@code node 1 of 2} or {@code part 1 of 2, alone}. */
    public String describe() {
        return alone ? "part " + index + " of " + count + ", alone" : "node " + index + " of " + count;
    }
}
