package io.adaps.bench.macro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportRegionTest {
    private static final ReportRegion REGION = ReportRegion.comparison(ReportSubject.of(Workload.MF));
    private static final String PAGE = "# Benchmarks\n\nHow to run.\n\n## Technique comparison\n\n"
            + "<!-- technique-comparison:mf:begin -->\nold table\n<!-- technique-comparison:mf:end -->\n\n"
            + "## Analysis\n\nWritten by hand.\n";

    @Test
    void replacesOnlyTheRegionsContent() {
        assertThat(REGION.replace(PAGE, "| new | table |\n")).isEqualTo("# Benchmarks\n\nHow to run.\n\n"
                + "## Technique comparison\n\n<!-- technique-comparison:mf:begin -->\n| new | table |\n"
                + "<!-- technique-comparison:mf:end -->\n\n## Analysis\n\nWritten by hand.\n");
    }

    @Test
    void replacingTwiceGivesTheSameAsOnce() {
        String once = REGION.replace(PAGE, "generated\n");
        assertThat(REGION.replace(once, "generated\n")).isEqualTo(once);
    }

    @Test
    void markersQuotedInProseAreNotTheRegion() {
        String quoting = "Replaces the text between `<!-- technique-comparison:mf:begin -->` and\n"
                + "`<!-- technique-comparison:mf:end -->`.\n\n" + PAGE;
        assertThat(REGION.replace(quoting, "new\n")).isEqualTo(quoting.replace("\nold table\n", "\nnew\n"));
    }

    @Test
    void aPageWithoutARegionGetsOneAppended() {
        assertThat(REGION.replace("# Notes\nend", "generated"))
                .isEqualTo("# Notes\nend\n\n<!-- technique-comparison:mf:begin -->\ngenerated\n"
                        + "<!-- technique-comparison:mf:end -->\n");
        assertThat(REGION.replace("", "generated\n"))
                .isEqualTo("<!-- technique-comparison:mf:begin -->\ngenerated\n<!-- technique-comparison:mf:end -->\n");
    }

    @Test
    void brokenMarkersAreRefused() {
        assertThatThrownBy(() -> REGION.replace("<!-- technique-comparison:mf:begin -->\nno end\n", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("markers: <!-- technique-comparison:mf:begin --> at lines [1], <!-- technique-comparison:mf:end --> "
                        + "at lines [] (expected each exactly once on a line of its own, "
                        + "<!-- technique-comparison:mf:begin --> first)");
        assertThatThrownBy(() -> REGION.replace(
                "<!-- technique-comparison:mf:end -->\n<!-- technique-comparison:mf:begin -->\n", "x"))
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
                .isEqualTo("<!-- technique-comparison:mf:begin -->\nfresh\n<!-- technique-comparison:mf:end -->\n");
    }

    @Test
    void aFileWithBrokenMarkersIsNamedAndLeftUnchanged(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("benchmarks.md");
        String broken = "text\n<!-- technique-comparison:mf:end -->\n";
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
        ReportRegion mf = ReportRegion.comparison(ReportSubject.of(Workload.MF));
        ReportRegion w2v = ReportRegion.comparison(ReportSubject.of(Workload.W2V));
        assertThat(mf.begin()).isEqualTo("<!-- technique-comparison:mf:begin -->");
        String page = w2v.replace(mf.replace("# Benchmarks\n", "mf table\n"), "w2v table\n");
        assertThat(mf.replace(page, "new mf table\n")).isEqualTo("# Benchmarks\n\n"
                + "<!-- technique-comparison:mf:begin -->\nnew mf table\n<!-- technique-comparison:mf:end -->\n\n"
                + "<!-- technique-comparison:w2v:begin -->\nw2v table\n<!-- technique-comparison:w2v:end -->\n");
    }

    @Test
    void aScalingRegionGoesUnderTheIntroductionAndTheNextOneAfterIt() {
        String page = "# Benchmarks\n\nHow to read them.\n\n## How to run\n\nText.\n";
        String once = ReportRegion.scaling(ReportSubject.of(Workload.MF)).replace(page, "### mf\n");
        assertThat(once).isEqualTo("# Benchmarks\n\nHow to read them.\n\n"
                + "<!-- scaling:mf:begin -->\n### mf\n<!-- scaling:mf:end -->\n\n## How to run\n\nText.\n");
        String twice = ReportRegion.scaling(ReportSubject.of(Workload.W2V)).replace(once, "### w2v\n## a heading in the report\n");
        assertThat(twice).isEqualTo("# Benchmarks\n\nHow to read them.\n\n"
                + "<!-- scaling:mf:begin -->\n### mf\n<!-- scaling:mf:end -->\n\n"
                + "<!-- scaling:w2v:begin -->\n### w2v\n## a heading in the report\n<!-- scaling:w2v:end -->\n\n"
                + "## How to run\n\nText.\n");
        assertThat(ReportRegion.scaling(ReportSubject.of(Workload.MF)).replace(twice, "### mf again\n"))
                .as("a region that is there is replaced where it is")
                .isEqualTo(twice.replace("### mf\n", "### mf again\n"));
    }

    @Test
    void aScalingRegionGoesAboveTheComparisonsRegionsOfAPageWithoutHeadings() {
        String page = "Intro.\n\n<!-- technique-comparison:mf:begin -->\n### mf, 2 nodes\n"
                + "<!-- technique-comparison:mf:end -->\n";
        assertThat(ReportRegion.scaling(ReportSubject.of(Workload.MF)).replace(page, "scaling\n")).isEqualTo("Intro.\n\n"
                + "<!-- scaling:mf:begin -->\nscaling\n<!-- scaling:mf:end -->\n\n" + page.substring("Intro.\n\n".length()));
        assertThat(ReportRegion.scaling(ReportSubject.of(Workload.MF)).replace("## Heading first\n", "scaling\n"))
                .isEqualTo("<!-- scaling:mf:begin -->\nscaling\n<!-- scaling:mf:end -->\n\n## Heading first\n");
    }

    @Test
    void aPageThatIsAllIntroductionGetsTheScalingRegionAppended(@TempDir Path dir) throws IOException {
        assertThat(ReportRegion.scaling(ReportSubject.of(Workload.W2V)).replace("# Notes\n\nNo sections.\n", "scaling\n"))
                .isEqualTo("# Notes\n\nNo sections.\n\n<!-- scaling:w2v:begin -->\nscaling\n<!-- scaling:w2v:end -->\n");
        Path missing = dir.resolve("report.md");
        ReportRegion.scaling(ReportSubject.of(Workload.W2V)).write(missing, "scaling\n");
        assertThat(Files.readString(missing)).isEqualTo("<!-- scaling:w2v:begin -->\nscaling\n<!-- scaling:w2v:end -->\n");
    }
}
