package io.adaps.bench.macro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A generated part of a hand-written Markdown page: the text between the lines {@link #begin()}
 * and {@link #end()}, {@code <!-- kind:subject:begin -->} and {@code <!-- kind:subject:end -->}.
 * Rewriting only that region lets the comparison update {@code docs/benchmarks.md} in place,
 * keeping the prose around it (how to run, the machine, the analysis) as people wrote it; each
 * kind of report has a region per workload ({@link #comparison}, {@link #scaling}), so that a
 * comparison of one workload leaves the other's figures alone. A page without the region gets it
 * where its kind belongs ({@link Placement}).
 *
 * @param kind      what the region holds, e.g. {@code technique-comparison}
 * @param subject   which one of them, e.g. the workload {@code mf}, or {@code mf:tall} (see {@link ReportSubject})
 * @param placement where a page without the region gets it
 */
record ReportRegion(String kind, String subject, Placement placement) {
    /** A region's begin marker, on a line of its own; group 1 is the region's name. */
    private static final Pattern BEGIN = Pattern.compile("<!-- (\\S+):begin -->");
    /** A Markdown heading below the page's title: where the page's introduction ends. */
    private static final Pattern SUBHEADING = Pattern.compile("#{2,6}\\s.*");

    /** Where a page without the region gets it. */
    enum Placement {
        /** Appended: a section after the page's prose, as the technique comparison's detailed tables. */
        END,
        /**
         * Under the page's introduction, before its first subheading or region of another kind, and
         * after the regions of its own kind there (in the order they were added): what a reader
         * should see first, as the scaling report. A page that is all introduction gets it appended.
         */
        TOP
    }

    /**
     * The region of {@code subject}'s technique comparison: {@code technique-comparison:mf}
     * ({@code technique-comparison:mf:tall} with a label), at the end.
     */
    static ReportRegion comparison(ReportSubject subject) {
        return new ReportRegion("technique-comparison", subject.regionName(), Placement.END);
    }

    /** The region of {@code subject}'s scaling report: {@code scaling:mf} ({@code scaling:mf:tall}), at the top. */
    static ReportRegion scaling(ReportSubject subject) {
        return new ReportRegion("scaling", subject.regionName(), Placement.TOP);
    }

    /** The region's name, which its markers carry: {@code kind:subject}. */
    String name() {
        return kind + ":" + subject;
    }

    /** The line that opens the region. */
    String begin() {
        return marker(name(), "begin");
    }

    /** The line that closes the region. */
    String end() {
        return marker(name(), "end");
    }

    private static String marker(String name, String side) {
        return "<!-- " + name + ":" + side + " -->";
    }

    /**
     * {@code document} with its region's content replaced by {@code generated}; a document without
     * the region gets it where its {@link Placement} says (a new file is just the region). A marker
     * counts only on a line of its own, so that prose may quote it.
     *
     * @throws IllegalArgumentException if the document has only one of the markers, one of them
     *                                  twice, or the end before the begin
     */
    String replace(String document, String generated) {
        List<Integer> begins = lines(document, begin());
        List<Integer> ends = lines(document, end());
        String region = begin() + "\n" + generated + (generated.endsWith("\n") ? "" : "\n") + end();
        if (begins.isEmpty() && ends.isEmpty()) {
            return insert(document, region);
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

    /** {@code document} with {@code region} added where the placement says, set off by blank lines. */
    private String insert(String document, String region) {
        String[] lines = document.split("\n", -1);
        int at = placement == Placement.TOP ? endOfIntroduction(lines) : -1;
        if (at < 0) {
            String separator = document.isEmpty() ? "" : document.endsWith("\n") ? "\n" : "\n\n";
            return document + separator + region + "\n";
        }
        int offset = 0;
        for (int line = 0; line < at; line++) {
            offset += lines[line].length() + 1;
        }
        return document.substring(0, offset) + region + "\n\n" + document.substring(offset);
    }

    /**
     * The index of the line a {@link Placement#TOP} region goes before: the first subheading or
     * begin marker of another kind's region, past the regions of this kind; -1 if there is none.
     */
    private int endOfIntroduction(String[] lines) {
        int line = 0;
        while (line < lines.length) {
            Matcher begin = BEGIN.matcher(lines[line]);
            if (begin.matches() && begin.group(1).startsWith(kind + ":")) {
                String end = marker(begin.group(1), "end");
                while (line < lines.length && !lines[line].equals(end)) {
                    line++;
                }
            } else if (begin.matches() || SUBHEADING.matcher(lines[line]).matches()) {
                return line;
            }
            line++;
        }
        return -1;
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
