package io.adaps.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** What the restart tests read from a launched cluster: its checkpoints, its JVMs and its RESULT lines. */
public final class RestartRuns {
    private static final Pattern PROGRESS = Pattern.compile("epoch=\\d+ step=\\d+ of=\\d+ done=\\d+");

    private RestartRuns() {
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
