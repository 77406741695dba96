package io.adaps.bench.macro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The generated part of a hand-written Markdown page: the text between {@link #BEGIN} and
 * {@link #END}. Rewriting only that region lets the comparison update {@code docs/benchmarks.md}
 * in place, keeping the prose around it (how to run, the machine, the analysis) as people wrote it.
 */
final class ReportRegion {
    static final String BEGIN = "<!-- technique-comparison:begin -->";
    static final String END = "<!-- technique-comparison:end -->";

    private ReportRegion() {
    }

    /**
     * {@code document} with its region's content replaced by {@code generated}; a document without
     * a region gets one appended (a new file is just the region). A marker counts only on a line of
     * its own, so that prose may quote it.
     *
     * @throws IllegalArgumentException if the document has only one of the markers, one of them
     *                                  twice, or the end before the begin
     */
    static String replace(String document, String generated) {
        List<Integer> begins = lines(document, BEGIN);
        List<Integer> ends = lines(document, END);
        String region = BEGIN + "\n" + generated + (generated.endsWith("\n") ? "" : "\n") + END;
        if (begins.isEmpty() && ends.isEmpty()) {
            String separator = document.isEmpty() ? "" : document.endsWith("\n") ? "\n" : "\n\n";
            return document + separator + region + "\n";
        }
        if (begins.size() != 1 || ends.size() != 1 || ends.get(0) < begins.get(0)) {
            throw new IllegalArgumentException("markers: " + BEGIN + " at lines " + begins + ", " + END + " at lines "
                    + ends + " (expected each exactly once on a line of its own, " + BEGIN + " first)");
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
    static void write(Path file, String generated) throws IOException {
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
    static void check(Path file) throws IOException {
        updated(file, "");
    }

    private static String updated(Path file, String generated) throws IOException {
        String document = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        try {
            return replace(document, generated);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("file=" + file + ": " + e.getMessage(), e);
        }
    }
}
