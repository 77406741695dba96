package io.adaps.examples;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.adaps.api.AdaPS;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The examples' {@code --part I/N} option (a picocli mixin): a single node trains, alone, the share
 * of the data that node I of an N-node cluster trains. Run N such nodes at once, each on a
 * processor of its own ({@code launch --alone --pin-cores}), and their epochs are what that
 * cluster's would be if communication cost nothing: the ceiling its speed-up can reach on these
 * processors, which half a problem's better use of the caches can put above N.
 */
public final class PartOption {
    private static final Pattern FORM = Pattern.compile("(\\d{1,9})/(\\d{1,9})");

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--part", paramLabel = "I/N",
            description = "Train alone, on a single node, the share of the data that node I of an N-node cluster "
                    + "trains (its entries or sentences and its random streams), without any communication: a "
                    + "reference for benchmarks, whose quality figures are the part's own (default: all of the "
                    + "data; on a cluster, each node its share).")
    private String part;

    /**
     * Checks the option's form, before the node starts.
     *
     * @throws ParameterException naming the option if it is not {@code I/N} with {@code 0 <= I < N}
     */
    public void validate() {
        given();
    }

    /**
     * The part that {@code node} trains: with {@code --part}, the part given (only on a single
     * node); without, {@link DataPart#of its share} of its cluster's data.
     *
     * @throws ParameterException if {@code --part} is given to a node of a cluster
     */
    public DataPart part(AdaPS node) {
        DataPart given = given();
        if (given == null) {
            return DataPart.of(node);
        }
        if (node.clusterSize() > 1) {
            throw new ParameterException(spec.commandLine(), "--part=" + part + " (expected only on a single node: "
                    + "the " + node.clusterSize() + " nodes of this cluster train their shares together)");
        }
        return given;
    }

    private DataPart given() {
        if (part == null) {
            return null;
        }
        Matcher matcher = FORM.matcher(part.trim());
        if (matcher.matches()) {
            int index = Integer.parseInt(matcher.group(1));
            int count = Integer.parseInt(matcher.group(2));
            if (count > 0 && index < count) {
                return new DataPart(index, count, true);
            }
        }
        throw new ParameterException(spec.commandLine(), "--part=" + part + " (expected I/N with 0 <= I < N, e.g. 1/2)");
    }
}
