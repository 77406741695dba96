package io.adaps.examples.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.adaps.examples.Examples;
import picocli.CommandLine;

/** Flag validation of {@code launch}: every case fails before any process starts. */
class LaunchCommandTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
            --nodes=0 -- mf                  ; --nodes=0 (expected > 0)
            --nodes=-2 mf --threads=1        ; --nodes=-2 (expected > 0)
            --heap=lots -- mf                ; --heap=lots (expected a size such as 512m or 2g)
            -- nope                          ; APPLICATION=nope (expected one of [mf, w2v])
            -- launch --nodes=2 -- mf        ; APPLICATION=launch (expected one of [mf, w2v])
            --nodes=2                        ; Missing required parameter: 'APPLICATION'
            --bogus -- mf                    ; Unknown option: '--bogus'
            --restarts=-1 -- mf              ; --restarts=-1 (expected >= 0)
            --restarts=2 -- mf --threads=1   ; --restarts=2 (expected an application with --checkpoint-dir, whose newest checkpoint the restarted nodes resume from)
            --alone --restarts=1 -- mf --checkpoint-dir=c ; --restarts=1 (expected 0 with --alone: single nodes that fail are not restarted)
            --first-core=1 -- mf             ; --first-core=1 (expected 0 without --pin-cores)
            --pin-cores --first-core=-1 -- mf ; --first-core=-1 (expected 0..
            --pin-cores --first-core=4096 -- mf ; --first-core=4096 (expected 0..
            """)
    void badFlagsAreUsageErrorsNamingTheFlag(String flags, String message) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Examples.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        String[] args = ("launch " + flags).split(" ");

        assertThat(commandLine.execute(args)).isEqualTo(2);
        assertThat(err.toString()).contains(message).contains("Usage: adaps-example launch");
        assertThat(out.toString()).isEmpty();
        assertThat(ProcessHandle.current().children()).isEmpty();
    }
}
