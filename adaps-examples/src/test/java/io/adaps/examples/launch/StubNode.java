package io.adaps.examples.launch;

import java.io.IOException;

/**
 * A stand-in node for {@link LauncherIT}: prints its environment, then node {@code args[0]} exits
 * with code {@code args[1]} at once while every other node waits until its stdin ends (or it is
 * stopped) and exits 0.
 */
public final class StubNode {
    private StubNode() {
    }

    /** Runs the stub; see the class comment. */
    public static void main(String[] args) throws IOException {
        int node = Integer.parseInt(System.getenv("ADAPS_NODE_ID"));
        System.out.println("peers=" + System.getenv("ADAPS_PEERS") + " cluster=" + System.getenv("ADAPS_CLUSTER_ID"));
        if (node == Integer.parseInt(args[0])) {
            System.err.println("failing on purpose");
            System.exit(Integer.parseInt(args[1]));
        }
        System.out.println("waiting");
        System.out.flush();
        while (System.in.read() >= 0) {
            // Wait until stdin ends or the launcher stops this process.
        }
    }
}
