package io.adaps.bench.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointResult;
import io.adaps.api.Worker;
import io.adaps.examples.mf.MfData;
import io.adaps.examples.mf.MfTables;
import io.adaps.examples.mf.SyntheticMatrix;

/**
 * How large an incremental checkpoint of a matrix-factorization model is after a tenth of an
 * epoch and after a whole one, against the full checkpoint (issue 15's report). One node holds the
 * two factor tables of the {@code mf} example ({@link MfTables}, rank 32); the ratings are the
 * example's zipf-skewed generator's ({@link SyntheticMatrix}, exponent 1.1), so a few rows and
 * columns hold most entries. An epoch pushes an update to the row and the column of every entry,
 * as SGD does. Two directories, each with its own chain ({@code fullCheckpointEvery(2)}), both
 * start with a full checkpoint; after 1/10 of the entries the first takes an increment, after the
 * rest the second: the rows changed in 1/10 epoch and in one epoch. Rows an epoch touches are
 * counted from the entries too: on one node the increment holds exactly them. Last, the restore
 * of the epoch's chain against that of a full checkpoint of the same state.
 *
 * <pre>
 * java -Xmx3g --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp adaps-bench/target/benchmarks.jar \
 *     io.adaps.bench.checkpoint.IncrementalCheckpointSize [rows cols entries]... [--dir DIR]
 * </pre>
 * Without a data size it runs the example's default data (10,000 x 5,000, 4,000,000 entries) and a
 * sparser one (1,000,000 x 200,000, 10,000,000 entries).
 */
public final class IncrementalCheckpointSize {
    private static final int RANK = 32;
    private static final double ZIPF = 1.1;
    private static final long SEED = 42;
    private static final int BATCH = 1024;

    private IncrementalCheckpointSize() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = null;
        int given = args.length;
        if (given >= 2 && args[given - 2].equals("--dir")) {
            dir = Path.of(args[given - 1]);
            given -= 2;
        }
        if (given % 3 != 0) {
            throw new IllegalArgumentException("args=" + String.join(" ", args) + " (expected [rows cols entries]... [--dir DIR])");
        }
        int[][] sizes = given == 0 ? new int[][] {{10_000, 5_000, 4_000_000}, {1_000_000, 200_000, 10_000_000}}
                : new int[given / 3][];
        for (int i = 0; i < given / 3; i++) {
            sizes[i] = new int[] {Integer.parseInt(args[3 * i]), Integer.parseInt(args[3 * i + 1]),
                    Integer.parseInt(args[3 * i + 2])};
        }
        Path root = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("adaps-increment-bench");
        for (int[] size : sizes) {
            run(size[0], size[1], size[2], Files.createTempDirectory(root, "mf-"));
        }
    }

    private static void run(int rows, int cols, int entries, Path dir) throws IOException {
        MfData data = new SyntheticMatrix(new SyntheticMatrix.Spec(rows, cols, entries, 10, 0.1, ZIPF, SEED)).sample();
        Path tenth = dir.resolve("tenth");
        Path epoch = dir.resolve("epoch");
        Path fullAfter = dir.resolve("full-after-the-epoch");
        try (AdaPS node = MfTables.builder(rows, cols, RANK, SEED).fullCheckpointEvery(2).build();
             Worker worker = node.worker()) {
            CheckpointResult first = node.checkpoint(tenth);
            CheckpointResult full = node.checkpoint(epoch);
            System.out.printf(Locale.ROOT, "data: %,d x %,d, %,d entries, zipf %.1f; model: %,d rows x %d floats; "
                    + "full checkpoint %,d bytes, pause %.1f ms (the first: %.1f ms)%n", rows, cols, entries, ZIPF,
                    rows + cols, RANK, full.bytesWritten(), full.pause().toNanos() / 1e6, first.pause().toNanos() / 1e6);
            int split = entries / 10;
            report("1/10 epoch", train(worker, data, 0, split), node.checkpoint(tenth), full, rows + cols);
            BitSet all = train(worker, data, split, entries);
            all.or(touched(data, 0, split));
            report("1 epoch", all, node.checkpoint(epoch), full, rows + cols);
            node.checkpoint(fullAfter);
        }
        System.out.printf(Locale.ROOT, "restore of the epoch's chain (full + increment): %.3f s; of a full checkpoint of "
                + "the same state: %.3f s%n", restore(rows, cols, epoch), restore(rows, cols, fullAfter));
    }

    /** Seconds to build a node restored from {@code dir}. */
    private static double restore(int rows, int cols, Path dir) {
        long start = System.nanoTime();
        try (AdaPS restored = MfTables.builder(rows, cols, RANK, SEED).restoreFrom(dir).build()) {
            return (System.nanoTime() - start) / 1e9;
        }
    }

    /** Pushes an update to the row and the column of entries {@code [from, to)}; returns the rows they touched. */
    private static BitSet train(Worker worker, MfData data, int from, int to) {
        long[] rowKeys = new long[BATCH];
        long[] colKeys = new long[BATCH];
        float[] updates = new float[BATCH * RANK];
        for (int i = 0; i < updates.length; i++) {
            updates[i] = 1e-3f * ((i % 7) - 3);
        }
        for (int start = from; start < to; start += BATCH) {
            int n = Math.min(BATCH, to - start);
            for (int i = 0; i < n; i++) {
                rowKeys[i] = data.rows()[start + i];
                colKeys[i] = data.cols()[start + i];
            }
            long[] rowBatch = n == BATCH ? rowKeys : Arrays.copyOf(rowKeys, n);
            long[] colBatch = n == BATCH ? colKeys : Arrays.copyOf(colKeys, n);
            float[] updateBatch = n == BATCH ? updates : Arrays.copyOf(updates, n * RANK);
            worker.table(MfTables.ROWS).push(rowBatch, updateBatch);
            worker.table(MfTables.COLS).push(colBatch, updateBatch);
        }
        worker.waitAll();
        return touched(data, from, to);
    }

    /** The model's rows (matrix rows, then columns) that entries {@code [from, to)} update. */
    private static BitSet touched(MfData data, int from, int to) {
        BitSet rows = new BitSet();
        for (int i = from; i < to; i++) {
            rows.set(data.rows()[i]);
            rows.set(data.numRows() + data.cols()[i]);
        }
        return rows;
    }

    private static void report(String after, BitSet touched, CheckpointResult increment, CheckpointResult full,
                               int modelRows) throws IOException {
        // The manifest's documented text (docs/architecture.md, Format): base=G, and file=... kind=data ... rows=R.
        List<String> lines = Files.readAllLines(increment.manifest());
        long base = lines.stream().filter(line -> line.startsWith("base=")).mapToLong(line -> Long.parseLong(
                line.substring("base=".length()).trim())).findFirst().orElse(0);
        long saved = lines.stream().filter(line -> line.startsWith("file=") && line.contains(" kind=data "))
                .mapToLong(line -> Long.parseLong(field(line, "rows"))).sum();
        System.out.printf(Locale.ROOT, "after %s: %,d rows changed (%.1f%% of the model), %,d in the increment (base %d); "
                + "increment %,d bytes = %.3f of full, pause %.1f ms%n", after, touched.cardinality(),
                100.0 * touched.cardinality() / modelRows, saved, base, increment.bytesWritten(),
                increment.bytesWritten() / (double) full.bytesWritten(), increment.pause().toNanos() / 1e6);
    }

    /** The value of {@code key=} in a manifest's file line. */
    private static String field(String line, String key) {
        for (String part : line.split(" ")) {
            if (part.startsWith(key + "=")) {
                return part.substring(key.length() + 1);
            }
        }
        throw new IllegalStateException("manifest line '" + line + "' (expected " + key + "=...)");
    }
}
