package io.adaps.bench.macro;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.XYStyler;

/**
 * The PNG charts of one workload's runs on one node count, drawn with XChart into image buffers
 * (no window: AWT runs headless, as it must on build machines and CI without a display).
 *
 * <p>Only runs that succeeded are drawn (a diverged run's times are drawn, its {@code NaN} quality
 * points are not); the table beside the chart says what happened to the others. A chart with
 * nothing to draw is not written.
 */
final class ComparisonCharts {
    /** Wide enough for ten configurations' labels beside each other (or, for lines, a legend beside the plot). */
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 560;

    static {
        // Before anything touches AWT: charts are only rendered into images, never shown.
        System.setProperty("java.awt.headless", "true");
    }

    private ComparisonCharts() {
    }

    /**
     * Writes a bar chart of the mean epoch time of each run to {@code png}.
     *
     * @return whether it was written: false if no run succeeded
     */
    static boolean epochTimes(String title, List<RunOutcome> runs, Path png) throws IOException {
        List<String> configurations = new ArrayList<>();
        List<Double> seconds = new ArrayList<>();
        for (RunOutcome run : runs) {
            OptionalDouble mean = run.meanEpochSeconds();
            if (run.failure() == null && mean.isPresent()) {
                configurations.add(run.config().configuration());
                seconds.add(mean.getAsDouble());
            }
        }
        if (configurations.isEmpty()) {
            return false;
        }
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("configuration (nodes x threads, technique)").yAxisTitle("mean epoch time (s)").build();
        CategoryStyler styler = chart.getStyler();
        styler.setLegendVisible(false);
        styler.setXAxisLabelRotation(40);
        styler.setYAxisMin(0.0);
        styler.setYAxisDecimalPattern("0.00");
        styler.setLabelsVisible(true);
        chart.addSeries("mean epoch time", configurations, seconds);
        write(chart, png);
        return true;
    }

    /**
     * Writes a line chart of the quality after each epoch against the cumulative training time
     * (the sum of the epochs' times so far) of each run to {@code png}: which configuration reaches
     * a given quality first.
     *
     * @return whether it was written: false if no run has a finite quality figure
     */
    static boolean qualityOverTime(String title, Workload workload, List<RunOutcome> runs, Path png)
            throws IOException {
        return qualityOver(title, workload, runs, png, false);
    }

    /**
     * Writes a line chart of each run's quality after each epoch against the epoch (every epoch is
     * the same number of clocks of every worker) to {@code png}.
     *
     * @return whether it was written: false if no run has a finite quality
     */
    static boolean qualityPerEpoch(String title, Workload workload, List<RunOutcome> runs, Path png)
            throws IOException {
        return qualityOver(title, workload, runs, png, true);
    }

    private static boolean qualityOver(String title, Workload workload, List<RunOutcome> runs, Path png,
                                       boolean perEpoch) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(perEpoch ? "epoch" : "cumulative training time (s)")
                .yAxisTitle(workload.qualityLabel() + " (lower is better)").build();
        XYStyler styler = chart.getStyler();
        styler.setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
        styler.setLegendPosition(LegendPosition.OutsideE);
        styler.setMarkerSize(6);
        styler.setYAxisDecimalPattern("0.000");
        boolean drawn = false;
        for (RunOutcome run : runs) {
            if (run.failure() != null) {
                continue;
            }
            List<Double> time = new ArrayList<>();
            List<Double> quality = new ArrayList<>();
            double elapsed = 0;
            for (EpochResult result : run.results()) {
                elapsed += result.seconds();
                OptionalDouble value = result.figure(workload.qualityKey());
                if (value.isPresent() && Double.isFinite(value.getAsDouble())) {
                    time.add(perEpoch ? result.epoch() : elapsed);
                    quality.add(value.getAsDouble());
                }
            }
            if (!time.isEmpty()) {
                chart.addSeries(run.config().configuration(), time, quality);
                drawn = true;
            }
        }
        if (drawn) {
            write(chart, png);
        }
        return drawn;
    }

    private static void write(Chart<?, ?> chart, Path png) throws IOException {
        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
        }
    }
}
