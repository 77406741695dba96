package io.adaps.examples;

import java.io.IOException;

import io.adaps.api.ClusterException;
import io.adaps.examples.launch.LaunchCommand;
import io.adaps.examples.mf.MfCommand;
import io.adaps.examples.w2v.W2vCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line of the examples: {@code adaps-example <application> [flags]}, or
 * {@code adaps-example launch --nodes N -- <application> [flags]} to run an application on a local
 * cluster of N JVMs.
 *
 * <p>Exit codes: 0 on success, 2 on bad usage (unknown or invalid flags, with a message naming
 * the flag and what was expected), 1 when the run fails, e.g. on an unreadable or malformed data
 * file (the message names the file and line) or a failed cluster node (the message names it).
 */
@Command(name = "adaps-example",
        mixinStandardHelpOptions = true,
        versionProvider = Examples.Version.class,
        description = "Runs a training application on AdaPS.",
        subcommands = {MfCommand.class, W2vCommand.class, LaunchCommand.class})
public final class Examples {
    private Examples() {
    }

    /** Runs the command line and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line, ready to {@link CommandLine#execute execute}; tests redirect its output
     * with {@link CommandLine#setOut} and {@link CommandLine#setErr}.
     */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new Examples())
                .setExecutionExceptionHandler(Examples::handleFailure);
        // Everything from the application's name on belongs to the application, flags included.
        commandLine.getSubcommands().get(LaunchCommand.NAME).setStopAtPositional(true);
        return commandLine;
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Examples.class.getPackage().getImplementationVersion();
            return new String[] {"AdaPS examples " + (version == null ? "(development build, not from a jar)" : version)};
        }
    }

    /**
     * Reports I/O problems (which name their file and line) and cluster failures (which name the
     * node) as one line instead of a stack trace.
     */
    private static int handleFailure(Exception failure, CommandLine command, CommandLine.ParseResult parsed)
            throws Exception {
        if (failure instanceof IOException || failure instanceof ClusterException) {
            command.getErr().println(command.getColorScheme().errorText(command.getCommandName() + ": "
                    + failure.getMessage()));
            return CommandLine.ExitCode.SOFTWARE;
        }
        throw failure;
    }
}
