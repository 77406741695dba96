package io.adaps.bench.macro;

import static io.adaps.bench.macro.ComparisonTable.NONE;
import static io.adaps.bench.macro.ComparisonTable.format;

import java.util.List;
import java.util.Optional;

import io.adaps.examples.ThreadCpu.Kind;

/**
 * The Markdown table of where each node's core goes: per run, a row per node with its wall time
 * per timed epoch and the processor seconds per epoch of each kind of thread ({@link NodeCpu}),
 * and what is left of the wall time, the core's idle time (waiting for other nodes or the network).
 * On pinned cores the single node's row is what training alone costs, so the rows of a cluster
 * show what its nodes spend besides: manager and transport threads, more JIT and GC, waiting.
 *
 * <p>A failed run is a row that says so; a node that printed no CPU line for the timed epochs
 * (an older example, or a run cut short) is a row that says that.
 */
final class NodeCpuTable {
    private NodeCpuTable() {
    }

    /** The table of {@code runs}, in their order, each line ending with a newline. */
    static String markdown(List<RunOutcome> runs) {
        StringBuilder table = new StringBuilder("| configuration | node | wall (s) |");
        for (Kind kind : Kind.values()) {
            table.append(' ').append(kind.label()).append(" |");
        }
        table.append(" idle |\n|---|---:").append("|---:".repeat(Kind.values().length + 2)).append("|\n");
        for (RunOutcome run : runs) {
            String configuration = "| " + run.config().configuration() + " | ";
            if (run.failure() != null) {
                table.append(configuration).append(NONE).append(" | ").append(run.failure())
                        .append((" | " + NONE).repeat(Kind.values().length + 1)).append(" |\n");
                continue;
            }
            for (int node = 0; node < run.config().nodes(); node++) {
                table.append(configuration).append(node).append(" | ");
                Optional<NodeCpu> cpu = run.timedCpu(node);
                if (cpu.isEmpty()) {
                    table.append("no CPU line for epochs ").append(run.firstTimedEpoch()).append('-')
                            .append(run.epochs()).append((" | " + NONE).repeat(Kind.values().length + 1))
                            .append(" |\n");
                    continue;
                }
                NodeCpu line = cpu.get();
                table.append(format("%.2f", line.wallPerEpoch()));
                for (Kind kind : Kind.values()) {
                    table.append(" | ").append(format("%.2f", line.perEpoch(kind)));
                }
                table.append(" | ").append(format("%.2f", line.idlePerEpoch())).append(" |\n");
            }
        }
        return table.toString();
    }
}
