package io.adaps.examples;

import java.nio.file.Path;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The examples' checkpoint options, {@code --checkpoint-dir}, {@code --checkpoint-every},
 * {@code --full-checkpoint-every} and {@code --resume} (a picocli mixin).
 */
public final class CheckpointOptions {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--checkpoint-dir", paramLabel = "DIR",
            description = "Checkpoints the model into DIR, which every node can reach, as --checkpoint-every says "
                    + "and after the last epoch (default: no checkpoints).")
    private Path dir;

    @Option(names = "--checkpoint-every", paramLabel = "EPOCHS|DURATION", defaultValue = "1",
            description = "With --checkpoint-dir: epochs between checkpoints, taken at epoch ends; or a duration "
                    + "such as 30s, 2m or 500ms: a checkpoint at the first of a few cuts per epoch after each "
                    + "duration, so that a resumed run continues mid-epoch (default: ${DEFAULT-VALUE}).")
    private String every;
    private CheckpointInterval interval;

    @Option(names = "--full-checkpoint-every", paramLabel = "N", defaultValue = "1",
            description = "With --checkpoint-dir: every N-th checkpoint is full, those between hold only the rows "
                    + "changed since the one before (default: ${DEFAULT-VALUE}, every checkpoint full).")
    private int fullEvery;

    @Option(names = "--resume",
            description = "With --checkpoint-dir: start from its newest checkpoint, if it holds one, where it was "
                    + "taken: with the epoch after the one it saved, or mid-epoch with the steps after its cut; give "
                    + "the same options as the run that wrote it (mid-epoch, also the same number of nodes).")
    private boolean resume;

    /**
     * Refuses a bad interval, or an interval or {@code --resume} without a directory.
     *
     * @throws ParameterException naming the option and its value
     */
    public void validate() {
        try {
            interval = CheckpointInterval.parse(every, "--checkpoint-every");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (fullEvery < 1) {
            throw new ParameterException(spec.commandLine(), "--full-checkpoint-every=" + fullEvery + " (expected >= 1)");
        }
        boolean everyGiven = spec.commandLine().getParseResult().hasMatchedOption("--checkpoint-every");
        boolean fullEveryGiven = spec.commandLine().getParseResult().hasMatchedOption("--full-checkpoint-every");
        if (dir == null && (resume || everyGiven || fullEveryGiven)) {
            throw new ParameterException(spec.commandLine(), (resume ? "--resume" : everyGiven
                    ? "--checkpoint-every=" + every : "--full-checkpoint-every=" + fullEvery)
                    + " (expected only together with --checkpoint-dir)");
        }
    }

    /** The checkpointing the options ask for. */
    public Checkpointing checkpointing() {
        return new Checkpointing(dir, interval, fullEvery, resume);
    }
}
