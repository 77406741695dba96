package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportRegionTest {
    private static final ReportRegion REGION = new ReportRegion("technique-comparison");
    private static final String PAGE = "# Benchmarks\n\nHow to run.\n\n## Technique comparison\n\n"
            + "<!-- technique-comparison:begin -->\nold table\n<!-- technique-comparison:end -->\n\n"
            + "## Analysis\n\nWritten by hand.\n";

    @Test
    void replacesOnlyTheRegionsContent() {
        assertThat(REGION.replace(PAGE, "| new | table |\n")).isEqualTo("# Benchmarks\n\nHow to run.\n\n"
                + "## Technique comparison\n\n<!-- technique-comparison:begin -->\n| new | table |\n"
                + "<!-- technique-comparison:end -->\n\n## Analysis\n\nWritten by hand.\n");
    }

    @Test
    void replacingTwiceGivesTheSameAsOnce() {
        String once = REGION.replace(PAGE, "generated\n");
        assertThat(REGION.replace(once, "generated\n")).isEqualTo(once);
    }

    @Test
    void markersQuotedInProseAreNotTheRegion() {
        String quoting = "Replaces the text between `<!-- technique-comparison:begin -->` and\n"
                + "`<!-- technique-comparison:end -->`.\n\n" + PAGE;
        assertThat(REGION.replace(quoting, "new\n")).isEqualTo(quoting.replace("\nold table\n", "\nnew\n"));
    }

    @Test
    void aPageWithoutARegionGetsOneAppended() {
        assertThat(REGION.replace("# Notes\nend", "generated"))
                .isEqualTo("# Notes\nend\n\n<!-- technique-comparison:begin -->\ngenerated\n"
                        + "<!-- technique-comparison:end -->\n");
        assertThat(REGION.replace("", "generated\n"))
                .isEqualTo("<!-- technique-comparison:begin -->\ngenerated\n<!-- technique-comparison:end -->\n");
    }

    @Test
    void brokenMarkersAreRefused() {
        assertThatThrownBy(() -> REGION.replace("<!-- technique-comparison:begin -->\nno end\n", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("markers: <!-- technique-comparison:begin --> at lines [1], <!-- technique-comparison:end --> "
                        + "at lines [] (expected each exactly once on a line of its own, "
                        + "<!-- technique-comparison:begin --> first)");
        assertThatThrownBy(() -> REGION.replace(
                "<!-- technique-comparison:end -->\n<!-- technique-comparison:begin -->\n", "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> REGION.replace(PAGE + PAGE, "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writesTheFileInPlaceAndCreatesAMissingOne(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("benchmarks.md");
        Files.writeString(page, PAGE);
        REGION.write(page, "fresh\n");
        assertThat(Files.readString(page)).isEqualTo(PAGE.replace("old table", "fresh"));

        Path missing = dir.resolve("new/report.md");
        REGION.write(missing, "fresh\n");
        assertThat(Files.readString(missing))
                .isEqualTo("<!-- technique-comparison:begin -->\nfresh\n<!-- technique-comparison:end -->\n");
    }

    @Test
    void aFileWithBrokenMarkersIsNamedAndLeftUnchanged(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("benchmarks.md");
        String broken = "text\n<!-- technique-comparison:end -->\n";
        Files.writeString(page, broken);
        assertThatThrownBy(() -> REGION.write(page, "fresh\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("file=" + page + ": markers:");
        assertThatThrownBy(() -> REGION.check(page))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("file=" + page + ": markers:");
        assertThat(Files.readString(page)).isEqualTo(broken);
    }

    @Test
    void eachWorkloadHasARegionOfItsOwnThatTheOtherLeavesAlone() {
        ReportRegion mf = ReportRegion.of(Workload.MF);
        ReportRegion w2v = ReportRegion.of(Workload.W2V);
        assertThat(mf.begin()).isEqualTo("<!-- technique-comparison:mf:begin -->");
        String page = w2v.replace(mf.replace("# Benchmarks\n", "mf table\n"), "w2v table\n");
        assertThat(mf.replace(page, "new mf table\n")).isEqualTo("# Benchmarks\n\n"
                + "<!-- technique-comparison:mf:begin -->\nnew mf table\n<!-- technique-comparison:mf:end -->\n\n"
                + "<!-- technique-comparison:w2v:begin -->\nw2v table\n<!-- technique-comparison:w2v:end -->\n");
    }
}
