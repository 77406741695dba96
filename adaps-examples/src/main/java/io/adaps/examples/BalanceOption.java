package io.adaps.examples;

import picocli.CommandLine.Option;

/**
 * The examples' {@code --[no-]balance} option: whether the nodes of a cluster train shares of each
 * epoch's data by their speeds ({@link SpeedShares}) or even shares (a picocli mixin).
 */
public final class BalanceOption {
    @Option(names = "--balance", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "On a cluster, deal each epoch's training data to the nodes by how fast each trained the "
                    + "epochs before (once they measured a second, when a node is 22%% or more slower), so that a "
                    + "slower node does not hold the others back; --no-balance keeps even shares (default: on).")
    private boolean balance;

    /** Whether a cluster's nodes train shares by speed. */
    public boolean balances() {
        return balance;
    }

    /** How a run's header names the choice on a cluster of {@code nodes} nodes: empty on a single node. */
    public String describe(int nodes) {
        return nodes > 1 ? (balance ? "; shares by speed" : "; even shares") : "";
    }
}
