package io.adaps.examples;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/**
 * One in-process run of the examples' command line, with what it printed.
 *
 * @param exitCode the command's exit code
 * @param out      what it wrote to standard output
 * @param err      what it wrote to standard error
 */
public record CommandRun(int exitCode, String out, String err) {
    /** Runs {@code adaps-example args...} in this JVM and captures its output. */
    public static CommandRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Examples.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new CommandRun(exitCode, out.toString(), err.toString());
    }
}
