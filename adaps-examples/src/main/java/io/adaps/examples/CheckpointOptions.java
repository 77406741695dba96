package io.adaps.examples;

import java.nio.file.Path;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The examples' checkpoint options, {@code --checkpoint-dir}, {@code --checkpoint-every} and {@code --resume} (a picocli mixin). */
public final class CheckpointOptions {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--checkpoint-dir", paramLabel = "DIR",
            description = "Checkpoints the model after every --checkpoint-every-th epoch and after the last into DIR, "
                    + "which every node can reach (default: no checkpoints).")
    private Path dir;

    @Option(names = "--checkpoint-every", paramLabel = "EPOCHS", defaultValue = "1",
            description = "With --checkpoint-dir: epochs between checkpoints (default: ${DEFAULT-VALUE}).")
    private int every;

    @Option(names = "--resume",
            description = "With --checkpoint-dir: start from its newest checkpoint, if it holds one, with the epoch "
                    + "after the one it saved and what each training thread saved (w2v: where its learning rate "
                    + "was); give the same options as the run that wrote it.")
    private boolean resume;

    /**
     * Refuses a bad interval, or an interval or {@code --resume} without a directory.
     *
     * @throws ParameterException naming the option
     */
    public void validate() {
        if (every <= 0) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-every=" + every + " (expected > 0)");
        }
        boolean everyGiven = spec.commandLine().getParseResult().hasMatchedOption("--checkpoint-every");
        if (dir == null && (resume || everyGiven)) {
            throw new ParameterException(spec.commandLine(), (resume ? "--resume" : "--checkpoint-every=" + every)
                    + " (expected only together with --checkpoint-dir)");
        }
    }

    /** The checkpointing the options ask for. */
    public Checkpointing checkpointing() {
        return new Checkpointing(dir, every, resume);
    }
}
