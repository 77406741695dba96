package io.adaps.bench.macro;

import java.util.regex.Pattern;

/**
 * What one generated report is about: a workload, and, when a comparison names its data
 * ({@code --label}, e.g. {@code tall} for a matrix of many rows), that label. The label keeps the
 * reports of several data shapes or corpora of one workload apart on a page: each has its own
 * regions, headings and chart files.
 *
 * @param workload the workload
 * @param label    the data's label, empty for the workload's default data
 */
record ReportSubject(Workload workload, String label) {
    /** What a label may be, as error messages say it. */
    static final String LABEL_EXPECTED = "lowercase letters and digits, words joined by single dashes, e.g. tall";
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    /**
     * @throws IllegalArgumentException if the label is neither empty nor of lowercase letters,
     *                                  digits and single dashes
     */
    ReportSubject {
        if (workload == null) {
            throw new IllegalArgumentException("workload=null (expected a workload)");
        }
        if (label == null || !label.isEmpty() && !isLabel(label)) {
            throw new IllegalArgumentException("label=" + label + " (expected " + LABEL_EXPECTED + ")");
        }
    }

    /** Whether {@code label} is a label ({@link #LABEL_EXPECTED}). */
    static boolean isLabel(String label) {
        return LABEL.matcher(label).matches();
    }

    /** The workload with its default data. */
    static ReportSubject of(Workload workload) {
        return new ReportSubject(workload, "");
    }

    /** How headings name it: {@code mf}, or {@code mf (tall)}. */
    String heading() {
        return label.isEmpty() ? workload.subcommand() : workload.subcommand() + " (" + label + ")";
    }

    /** How region markers name it: {@code mf}, or {@code mf:tall}. */
    String regionName() {
        return label.isEmpty() ? workload.subcommand() : workload.subcommand() + ":" + label;
    }

    /** How file names start with it: {@code mf}, or {@code mf-tall}. */
    String fileStem() {
        return label.isEmpty() ? workload.subcommand() : workload.subcommand() + "-" + label;
    }
}
