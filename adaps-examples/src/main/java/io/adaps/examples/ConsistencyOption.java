package io.adaps.examples;

import io.adaps.api.Consistency;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The examples' {@code --consistency} option: the model of the model's tables (a picocli mixin). */
public final class ConsistencyOption {
    /** The examples' default model; see docs/benchmarks.md for the measurements behind it. */
    public static final String DEFAULT = "essp:4";

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--consistency", paramLabel = "MODEL", defaultValue = "${env:ADAPS_CONSISTENCY:-" + DEFAULT + "}",
            description = "How stale the model's reads may be, in clocks (one clock per chunk of a thread's data): "
                    + "asp (no bound), bsp, ssp:S (reads see every update older than S clocks; faster workers "
                    + "wait) or essp:S (ssp with replicas refreshed eagerly) (default: $ADAPS_CONSISTENCY if set, "
                    + "else " + DEFAULT + ").")
    private String model;

    /**
     * The model asked for.
     *
     * @throws ParameterException naming the option, or {@code ADAPS_CONSISTENCY} if the value came from there
     */
    public Consistency consistency() {
        try {
            return Consistency.parse(model);
        } catch (IllegalArgumentException e) {
            String source = spec.commandLine().getParseResult().hasMatchedOption("--consistency") ? "--consistency"
                    : "ADAPS_CONSISTENCY";
            throw new ParameterException(spec.commandLine(), source + "='" + model + "' (expected asp, bsp, ssp:S or "
                    + "essp:S with S in 0.." + Consistency.MAX_STALENESS + ")");
        }
    }
}
