package io.adaps.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.adaps.testing.Await;
import picocli.CommandLine;

/** What the restart tests read from a launched cluster: its checkpoints, its JVMs and its RESULT lines. */
public final class RestartRuns {
    private static final Pattern PROGRESS = Pattern.compile("epoch=\\d+ step=\\d+ of=\\d+ done=\\d+");

    private RestartRuns() {
    }

    /**
     * Runs {@code launch} (a {@code launch ... --restarts=1} command whose nodes checkpoint to
     * {@code checkpoints}), kills node 1's JVM with SIGKILL once the newest checkpoint's progress
     * passes {@code killWhen}, and checks that the launcher restarted the cluster once and ended
     * well: the run's output split at node 0's {@code resumed from} line.
     */
    public static Resumed killAndResume(Path checkpoints, String[] launch, int nodes, String what,
                                        Predicate<EpochProgress> killWhen) throws InterruptedException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Examples.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        AtomicInteger exitCode = new AtomicInteger(-1);
        Thread launcher = new Thread(() -> exitCode.set(commandLine.execute(launch)), "launcher");
        launcher.start();

        // Polled every 20 ms at most, so the kill follows the checkpoint's publication long before
        // the period brings the next one.
        Await.until(what, Duration.ofSeconds(150), () -> newestProgress(checkpoints),
                at -> at.isPresent() && killWhen.test(at.get()));
        List<ProcessHandle> jvms = nodes(checkpoints);
        assertThat(jvms).as("the nodes' JVMs").hasSize(nodes);
        assertThat(jvms.get(1).destroyForcibly()).as("SIGKILL sent").isTrue();

        launcher.join(TimeUnit.SECONDS.toMillis(200));
        String output = out.toString();
        assertThat(launcher.isAlive()).as("launcher still running%n%s%n%s", output, err).isFalse();
        assertThat(exitCode.get()).as("%s%n%s", output, err).isZero();
        assertThat(err.toString()).contains("starting every node again with --resume (restart 1 of 1)");

        Matcher resumed = Pattern.compile("\\[node 0] resumed from " + Pattern.quote(checkpoints.toString())
                + "/MANIFEST-\\d+ in epoch (\\d+) after step (\\d+) of (\\d+) \\(entries=(\\d+) of the epoch trained "
                + "before\\)").matcher(output);
        assertThat(resumed.find()).as(output).isTrue();
        return new Resumed(output, Integer.parseInt(resumed.group(1)), Integer.parseInt(resumed.group(2)),
                Integer.parseInt(resumed.group(3)), Long.parseLong(resumed.group(4)),
                output.substring(0, resumed.start()), output.substring(resumed.end()));
    }

    /**
     * A run killed and resumed: it resumed in {@code epoch} after step {@code step} of {@code steps},
     * the nodes having trained {@code beforeCut} entries (words) of that epoch before the cut.
     */
    public record Resumed(String output, int epoch, int step, int steps, long beforeCut, String beforeRestart,
                          String afterRestart) {
    }

    /**
     * The progress saved in the newest checkpoint in {@code dir}, read from node 0's state file,
     * where it is text among the binary fields; empty before the first checkpoint.
     */
    public static Optional<EpochProgress> newestProgress(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            Optional<String> newest = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("MANIFEST-")).max(String::compareTo);
            if (newest.isEmpty()) {
                return Optional.empty();
            }
            Path state = dir.resolve("g" + newest.get().substring("MANIFEST-".length()) + "-n0.state");
            Matcher progress = PROGRESS.matcher(new String(Files.readAllBytes(state), StandardCharsets.ISO_8859_1));
            return progress.find()
                    ? Optional.of(EpochProgress.parse(progress.group().getBytes(StandardCharsets.US_ASCII)))
                    : Optional.empty();
        } catch (IOException notYetOrRemovedMeanwhile) {
            return Optional.empty();
        }
    }

    /** The live JVMs of this process's descendants that checkpoint to {@code checkpoints}: a cluster's nodes. */
    public static List<ProcessHandle> nodes(Path checkpoints) {
        String ours = "--checkpoint-dir=" + checkpoints;
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(process -> process.info().arguments().map(args -> List.of(args).contains(ours)).orElse(false))
                .toList();
    }

    /** The entries (or words) of node 0's RESULT lines of epoch {@code epoch} in {@code output}. */
    public static List<Long> entries(String output, int epoch) {
        return Pattern.compile("\\[node 0] RESULT epoch=" + epoch + " .* entries=(\\d+)").matcher(output).results()
                .map(result -> Long.parseLong(result.group(1))).toList();
    }
}
