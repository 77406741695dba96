package io.adaps.bench.macro;

import static io.adaps.api.SamplingScheme.LOCAL;
import static io.adaps.api.SamplingScheme.NAIVE;
import static io.adaps.api.Technique.ADAPTIVE;
import static io.adaps.api.Technique.STATIC;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonChartsTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private static final List<RunOutcome> RUNS = List.of(
            Runs.w2v(1, 2, null, NAIVE, 5, 3, 3),
            Runs.w2v(2, 1, STATIC, NAIVE, 9, 6, 6),
            Runs.w2v(2, 1, ADAPTIVE, LOCAL, 9, 2, 2),
            new RunOutcome(new RunConfig(Workload.W2V, 2, 1, ADAPTIVE, NAIVE), 3, -1, true, null, List.of(),
                    List.of(), Double.NaN));

    @Test
    void drawsTheEpochTimesAsAPng(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("img/w2v-2nodes-epoch-time.png");
        assertThat(ComparisonCharts.epochTimes("w2v, 2 nodes: mean epoch time", RUNS, png)).isTrue();
        assertPng(png);
    }

    @Test
    void drawsTheQualityOverTrainingTimeAsAPng(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("w2v-2nodes-quality.png");
        assertThat(ComparisonCharts.qualityOverTime("w2v, 2 nodes", Workload.W2V, RUNS, png)).isTrue();
        assertPng(png);
    }

    @Test
    void writesNothingWhenNoRunSucceeded(@TempDir Path dir) throws IOException {
        List<RunOutcome> failed = List.of(RUNS.get(3));
        assertThat(ComparisonCharts.epochTimes("t", failed, dir.resolve("a.png"))).isFalse();
        assertThat(ComparisonCharts.qualityOverTime("t", Workload.W2V, failed, dir.resolve("b.png"))).isFalse();
        assertThat(dir).isEmptyDirectory();
    }

    private static void assertPng(Path png) throws IOException {
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).isGreaterThan(1000);
        assertThat(Arrays.copyOf(bytes, PNG_MAGIC.length)).isEqualTo(PNG_MAGIC);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1000);
        assertThat(image.getHeight()).isEqualTo(560);
    }
}
