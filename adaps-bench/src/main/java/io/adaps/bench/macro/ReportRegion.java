package io.adaps.bench.macro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A generated part of a hand-written Markdown page: the text between the lines {@link #begin()}
 * and {@link #end()}, {@code <!-- name:begin -->} and {@code <!-- name:end -->}. Rewriting only that
 * region lets the comparison update {@code docs/benchmarks.md} in place, keeping the prose around
 * it (how to run, the machine, the analysis) as people wrote it; each workload has a region of its
 * own ({@link #of}), so that a comparison of one workload leaves the other's figures alone.
 *
 * @param name the region's name, which its markers carry
 */
record ReportRegion(String name) {
    /** The region of {@code workload}'s report: {@code technique-comparison:mf}, {@code technique-comparison:w2v}. */
    static ReportRegion of(Workload workload) {
        return new ReportRegion("technique-comparison:" + workload.subcommand());
    }

    /** The line that opens the region. */
    String begin() {
        return "<!-- " + name + ":begin -->";
    }

    /** The line that closes the region. */
    String end() {
        return "<!-- " + name + ":end -->";
    }

    /**
     * {@code document} with its region's content replaced by {@code generated}; a document without
     * a region gets one appended (a new file is just the region). A marker counts only on a line of
     * its own, so that prose may quote it.
     *
     * @throws IllegalArgumentException if the document has only one of the markers, one of them
     *                                  twice, or the end before the begin
     */
    String replace(String document, String generated) {
        List<Integer> begins = lines(document, begin());
        List<Integer> ends = lines(document, end());
        String region = begin() + "\n" + generated + (generated.endsWith("\n") ? "" : "\n") + end();
        if (begins.isEmpty() && ends.isEmpty()) {
            String separator = document.isEmpty() ? "" : document.endsWith("\n") ? "\n" : "\n\n";
            return document + separator + region + "\n";
        }
        if (begins.size() != 1 || ends.size() != 1 || ends.get(0) < begins.get(0)) {
            throw new IllegalArgumentException("markers: " + begin() + " at lines " + begins + ", " + end()
                    + " at lines " + ends + " (expected each exactly once on a line of its own, " + begin() + " first)");
        }
        String[] lines = document.split("\n", -1);
        StringBuilder replaced = new StringBuilder();
        for (int line = 0; line < begins.get(0) - 1; line++) {
            replaced.append(lines[line]).append('\n');
        }
        replaced.append(region);
        for (int line = ends.get(0); line < lines.length; line++) {
            replaced.append('\n').append(lines[line]);
        }
        return replaced.toString();
    }

    /** The numbers (from 1) of the lines of {@code document} that are exactly {@code marker}. */
    private static List<Integer> lines(String document, String marker) {
        String[] lines = document.split("\n", -1);
        List<Integer> numbers = new ArrayList<>();
        for (int line = 0; line < lines.length; line++) {
            if (lines[line].equals(marker)) {
                numbers.add(line + 1);
            }
        }
        return numbers;
    }

    /**
     * Replaces the region of the Markdown file {@code file} (created, with its directories, if it
     * does not exist) by {@code generated}.
     *
     * @throws IllegalArgumentException if the file's markers are broken (see {@link #replace}); the file is unchanged
     */
    void write(Path file, String generated) throws IOException {
        String updated = updated(file, generated);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, updated, StandardCharsets.UTF_8);
    }

    /**
     * Checks that {@link #write} will be able to update {@code file}, so that broken markers are
     * found before an hour of runs rather than after.
     *
     * @throws IllegalArgumentException if the file's markers are broken (see {@link #replace})
     */
    void check(Path file) throws IOException {
        updated(file, "");
    }

    private String updated(Path file, String generated) throws IOException {
        String document = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        try {
            return replace(document, generated);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("file=" + file + ": " + e.getMessage(), e);
        }
    }
}
