package io.adaps.examples.mf;

import static io.adaps.examples.Checks.checkPositive;
import static io.adaps.examples.Checks.checkPositiveFinite;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.adaps.api.AdaPS;
import io.adaps.api.ClusterException;
import io.adaps.api.Consistency;
import io.adaps.api.Technique;
import io.adaps.examples.BalanceOption;
import io.adaps.examples.CheckpointOptions;
import io.adaps.examples.ConsistencyOption;
import io.adaps.examples.DataPart;
import io.adaps.examples.EpochClocks;
import io.adaps.examples.Checkpointing;
import io.adaps.examples.Checks;
import io.adaps.examples.PartOption;
import io.adaps.examples.Seeds;
import io.adaps.examples.metrics.MetricsEndpoint;
import io.adaps.examples.metrics.MetricsOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code mf} subcommand: trains a matrix factorization with {@link MfTrainer} and reports, per
 * epoch, the time, train and test RMSE and the node's metrics.
 *
 * <p>Started with {@code ADAPS_NODE_ID} and {@code ADAPS_PEERS} in the environment (as the
 * {@code launch} command does), it runs as one node of a cluster; without them, as a single node.
 * Every node loads or generates the same data from the same flags and trains on its part of it
 * ({@link MfRun}).
 *
 * <p>Without {@code --train} it trains on a {@link SyntheticMatrix}, whose noise level is the best
 * test RMSE any model can reach, so the output shows how close training gets. The defaults are
 * sized to finish in about a minute on two cores, as a single node or as two nodes of one thread
 * each. Flags are validated before anything runs; a bad flag is a usage error (exit code 2) whose
 * message names the flag and what was expected.
 */
@Command(name = "mf",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Trains a matrix factorization with SGD on AdaPS: on a single node, or as one node of a "
                    + "cluster when ADAPS_NODE_ID and ADAPS_PEERS are set (see the launch command).",
            "",
            "Under the default technique, ADAPTIVE (also under REPLICATION_ONLY and FULL_REPLICATION, and on "
                    + "a single node under any technique but STATIC), each node trains the entries of its own rows with Hogwild and "
                    + "signals intent for the rows and columns of its next mini-batches; the library moves each row "
                    + "to the node that uses it and replicates the columns that several nodes use, with no manual "
                    + "placement and no tuning flags. Under STATIC the nodes run Hogwild on a part of the entries "
                    + "each, with parameters at their home nodes. Under RELOCATION_ONLY a cluster runs the blocked "
                    + "schedule of distributed SGD: each node trains its own rows one column block per sub-epoch "
                    + "and moves the block's columns to itself ahead of use; with --schedule BLOCKED, ADAPTIVE runs "
                    + "it too, but only signals intent for each sub-epoch's block, and under --consistency bsp the "
                    + "library hands each block from node to node. Under every technique, and on any "
                    + "number of nodes, a row or column holding more than 1/4096 of the training entries (and more "
                    + "than the mean of its kind) takes steps at the learning rate times the larger of those two counts "
                    + "over its own, so that the hottest parameters do not chase the latest entries.",
            "",
            "Node 0 prints a line per epoch and, for scripts, a line "
                    + "'RESULT epoch=N seconds=S rmse=R local=F bytes=B entries=T' (F: the cluster's local fraction, "
                    + "0 to 1; B: bytes node 0 sent so far; T: the cluster's training entries of the epoch).",
            "",
            "Trains on the Matrix Market files given with --train (and --test), else on a generated matrix: a "
                    + "random low-rank matrix plus Gaussian noise, observed at zipf-skewed positions.",
            ""})
public final class MfCommand implements Callable<Integer> {
    /** Options that shape generated data and so make no sense with --train. */
    private static final List<String> GENERATOR_OPTIONS = List.of("--rows", "--cols", "--entries", "--true-rank",
            "--noise", "--zipf");
    private static final long SPLIT_SEED = 1;
    private static final long MODEL_SEED = 2;
    private static final long SCHEDULE_SEED = 3;

    @Spec
    private CommandSpec spec;

    @Option(names = "--rank", paramLabel = "N", defaultValue = "32",
            description = "Floats per factor (default: ${DEFAULT-VALUE}).")
    private int rank;

    @Option(names = "--lr", paramLabel = "RATE", defaultValue = "0.1",
            description = "SGD learning rate (default: ${DEFAULT-VALUE}).")
    private float learningRate;

    @Option(names = "--reg", paramLabel = "WEIGHT", defaultValue = "0.01",
            description = "L2 regularization weight (default: ${DEFAULT-VALUE}).")
    private float regularization;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "10",
            description = "Passes over the training data (default: ${DEFAULT-VALUE}).")
    private int epochs;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "2",
            description = "Training threads per node (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--technique", paramLabel = "NAME", defaultValue = "${env:ADAPS_TECHNIQUE:-ADAPTIVE}",
            description = "How the nodes place parameters: ADAPTIVE (moved, replicated or handed on as the "
                    + "intents say), RELOCATION_ONLY (moved by hand to the node that uses them; the blocked "
                    + "schedule), REPLICATION_ONLY (replicated where intended), STATIC (each at its home "
                    + "node) or FULL_REPLICATION (replicated everywhere) (default: $ADAPS_TECHNIQUE if set, else "
                    + "ADAPTIVE).")
    private String techniqueName;
    private Technique technique;

    @Option(names = "--schedule", paramLabel = "NAME",
            description = "How a cluster's nodes walk their entries: HOGWILD (each node its rows, signalling intent "
                    + "for the rows and columns of its next chunks) or BLOCKED (the blocked schedule of distributed "
                    + "SGD, one column block per node and sub-epoch; with ADAPTIVE or RELOCATION_ONLY only) "
                    + "(default: BLOCKED under RELOCATION_ONLY, else HOGWILD).")
    private String scheduleName;
    private Schedule schedule;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "" + MfTrainer.DEFAULT_BATCH,
            description = "Entries per batch of a thread: those whose row and column this node owns are stepped in place, "
                    + "the others on copies pulled and pushed once per batch (default: ${DEFAULT-VALUE}).")
    private int batch;

    @Mixin
    private MetricsOption metrics;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "Seed of everything random: data, split, shuffle, initial model (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private CheckpointOptions checkpointOptions;

    @Mixin
    private ConsistencyOption consistencyOption;

    @Mixin
    private PartOption partOption;

    @Mixin
    private BalanceOption balance;
    private Consistency consistency;

    @Option(names = "--train", paramLabel = "FILE",
            description = "Training entries, a Matrix Market coordinate file.")
    private Path trainFile;

    @Option(names = "--test", paramLabel = "FILE",
            description = "Test entries, a Matrix Market file of the same size as --train "
                    + "(default: split from --train).")
    private Path testFile;

    @Option(names = "--test-fraction", paramLabel = "FRACTION", defaultValue = "0.1",
            description = "Share of the entries held out for testing when there is no --test "
                    + "(default: ${DEFAULT-VALUE}).")
    private double testFraction;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "10000",
            description = "Generated: rows (default: ${DEFAULT-VALUE}).")
    private int rows;

    @Option(names = "--cols", paramLabel = "N", defaultValue = "5000",
            description = "Generated: columns (default: ${DEFAULT-VALUE}).")
    private int cols;

    @Option(names = "--entries", paramLabel = "N", defaultValue = "4000000",
            description = "Generated: entries, drawn with replacement (default: ${DEFAULT-VALUE}).")
    private int entries;

    @Option(names = "--true-rank", paramLabel = "N", defaultValue = "10",
            description = "Generated: rank of the true matrix (default: ${DEFAULT-VALUE}).")
    private int trueRank;

    @Option(names = "--noise", paramLabel = "STDDEV", defaultValue = "0.1",
            description = "Generated: standard deviation of the noise, the best reachable RMSE "
                    + "(default: ${DEFAULT-VALUE}).")
    private double noise;

    @Option(names = "--zipf", paramLabel = "EXPONENT", defaultValue = "1.1",
            description = "Generated: zipf exponent of row and column choice, 0 = uniform "
                    + "(default: ${DEFAULT-VALUE}).")
    private double zipf;

    @Override
    public Integer call() throws IOException {
        validate();
        long start = System.nanoTime();
        MfData.Split data = loadData();
        double loadSeconds = (System.nanoTime() - start) / 1e9;
        PrintWriter out = spec.commandLine().getOut();
        MfData train = data.train();
        Checkpointing checkpoints = checkpointOptions.checkpointing();
        try (AdaPS node = startNode(train, checkpoints);
             MetricsEndpoint served = metrics.startFor(node, out);
             MfTrainer trainer = new MfTrainer(node, MfTables.ROWS, MfTables.COLS, learningRate, regularization,
                     threads, batch)) {
            DataPart part = partOption.part(node);
            MfRun run = new MfRun(node, part, trainer, EpochPlan.byShares(technique, schedule, data, part.index(),
                    part.count(), trainer.rowHomes(part.count()), Seeds.derive(seed, SCHEDULE_SEED, 0)), out,
                    checkpoints, balance.balances());
            EpochPlan plan = run.plan();
            trainer.alignClocks(EpochClocks.agree(node, trainer.mostChunks(plan.train())));
            if (node.nodeId() == 0) {
                out.println(describeData());
                out.printf(Locale.ROOT, "model: rank %d, lr %s, reg %s, %d epoch(s), seed %d%n", rank, learningRate,
                        regularization, epochs, seed);
                out.printf(Locale.ROOT,
                        "training: %d node(s) x %d thread(s), batches of %d entries; technique %s, "
                                + "consistency %s, %s%s; %s%n",
                        node.clusterSize(), threads, batch, technique, consistency, plan.describe(),
                        plan.dealsByShares() ? balance.describe(node.clusterSize()) : "", plan.scales());
                out.printf(Locale.ROOT, "entries: %d train, %d test, of a %d x %d matrix (%.2f s to load)%n",
                        train.size(), data.test().size(), train.numRows(), train.numCols(), loadSeconds);
            }
            run.run(epochs);
            node.barrier();
            checkpoints.finish(node, out);
        }
        return 0;
    }

    private void validate() {
        try {
            checkPositive(rank, "--rank");
            checkPositiveFinite(learningRate, "--lr");
            Checks.checkNonNegativeFinite(regularization, "--reg");
            checkPositive(epochs, "--epochs");
            checkPositive(threads, "--threads");
            checkPositive(batch, "--batch");
            // Without the flag, the value came from the environment: name where it came from.
            technique = Checks.checkOneOf(Technique.class, techniqueName,
                    spec.commandLine().getParseResult().hasMatchedOption("--technique") ? "--technique"
                            : "ADAPS_TECHNIQUE");
            schedule = (scheduleName == null ? Schedule.defaultFor(technique)
                    : Checks.checkOneOf(Schedule.class, scheduleName, "--schedule")).checkFits(technique);
            Checks.checkOpenFraction(testFraction, "--test-fraction");
            checkPositive(rows, "--rows");
            checkPositive(cols, "--cols");
            checkPositive(entries, "--entries");
            checkPositive(trueRank, "--true-rank");
            Checks.checkNonNegativeFinite(noise, "--noise");
            Checks.checkNonNegativeFinite(zipf, "--zipf");
        } catch (IllegalArgumentException e) {
            throw usageError(e.getMessage());
        }
        checkpointOptions.validate();
        partOption.validate();
        consistency = consistencyOption.consistency();
        if (trainFile == null) {
            if (testFile != null) {
                throw usageError("--test=" + testFile + " (expected only together with --train)");
            }
            return;
        }
        checkReadable(trainFile, "--train");
        if (testFile != null) {
            checkReadable(testFile, "--test");
            rejectIfGiven("--test-fraction", "only without --test, which replaces the split");
        }
        for (String option : GENERATOR_OPTIONS) {
            rejectIfGiven(option, "only without --train: it shapes generated data");
        }
    }

    private void checkReadable(Path file, String option) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw usageError(option + "=" + file + " (expected a readable file)");
        }
    }

    private void rejectIfGiven(String option, String expected) {
        if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
            throw usageError(option + "=" + spec.findOption(option).getValue() + " (expected " + expected + ")");
        }
    }

    private ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private String describeData() {
        if (trainFile == null) {
            return String.format(Locale.ROOT, "data: generated %d x %d, %d entries, true rank %d, noise %s, zipf %s, "
                    + "test fraction %s", rows, cols, entries, trueRank, noise, zipf, testFraction);
        }
        return "data: train " + trainFile
                + (testFile == null ? ", test fraction " + testFraction : ", test " + testFile);
    }

    private MfData.Split loadData() throws IOException {
        long splitSeed = Seeds.derive(seed, SPLIT_SEED, 0);
        if (trainFile == null) {
            SyntheticMatrix.Spec matrix = new SyntheticMatrix.Spec(rows, cols, entries, trueRank, noise, zipf, seed);
            return new SyntheticMatrix(matrix).sample().split(testFraction, splitSeed);
        }
        MfData train = MatrixMarketReader.read(trainFile);
        if (testFile == null) {
            return train.split(testFraction, splitSeed);
        }
        MfData test = MatrixMarketReader.read(testFile);
        if (test.numRows() != train.numRows() || test.numCols() != train.numCols()) {
            throw usageError("--test=" + testFile + " of " + test.numRows() + " x " + test.numCols() + " (expected "
                    + train.numRows() + " x " + train.numCols() + ", the size of --train=" + trainFile + ")");
        }
        return new MfData.Split(train.shuffled(splitSeed), test);
    }

    /**
     * Starts this process's node: a single node, or the node the environment names (see
     * {@link AdaPS.Builder#fromEnvironment()}), holding the factor tables and the evaluation sums,
     * with {@code --technique} (which wins over {@code ADAPS_TECHNIQUE}, its default), restored from
     * the newest checkpoint with {@code --resume}, and with its checkpoints' bookkeeping begun.
     */
    private AdaPS startNode(MfData train, Checkpointing checkpoints) {
        AdaPS.Builder builder = MfTables.builder(train.numRows(), train.numCols(), rank,
                Seeds.derive(seed, MODEL_SEED, 0)).table(ClusterStats.spec())
                .table(EpochClocks.spec());
        AdaPS node;
        try {
            node = checkpoints.configure(builder.fromEnvironment().technique(technique).consistency(consistency)).build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ClusterException("cluster configuration from the environment: " + e.getMessage(), e);
        }
        checkpoints.begin(node);
        return node;
    }
}
