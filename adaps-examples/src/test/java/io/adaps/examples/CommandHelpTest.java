package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every command's help formats cleanly. Picocli formats option descriptions as format strings
 * and, where one does not parse (a bare {@code %} in "22% or more slower"), prints the raw text
 * after a warning on {@code System.err}, which is not the command line's error stream, so the
 * commands' own tests did not see it.
 */
class CommandHelpTest {
    @ParameterizedTest(name = "{0} --help")
    @ValueSource(strings = {"mf", "w2v", "launch"})
    void helpFormatsWithoutWarnings(String command) {
        PrintStream systemErr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        CommandRun run;
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            run = CommandRun.run(command, "--help");
        } finally {
            System.setErr(systemErr);
        }
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: adaps-example " + command);
        assertThat(warnings.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
        assertThat(run.out()).doesNotContain("%n");
    }
}
