package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.Consistency;
import io.adaps.api.SamplingScheme;
import io.adaps.api.Technique;
import io.adaps.cluster.ClusterFixture;
import io.adaps.cluster.TestCluster;
import io.adaps.examples.Checkpointing;
import io.adaps.examples.ConsistencyOption;
import io.adaps.examples.EpochCuts;
import io.adaps.examples.EpochProgress;
import io.adaps.testing.Concurrently;

/**
 * {@link W2vTrainer} on the first lines of Europarl: on two in-process nodes under ADAPTIVE with
 * PRELOCALIZE sampling and the example's default consistency model the held-out loss falls every
 * epoch, and on one node with a fixed window and no sub-sampling every sentence is trained exactly
 * once per epoch, with intent for exactly each chunk's words.
 *
 * <p>Under {@code asp}, which bounds no replica's staleness, two busy threads beside the test made
 * the held-out loss after epoch 1 rise above the initial one in 2 runs of 8 (4.33 and 4.50 against
 * 4.15; a run of the example tests in one JVM failed so at 4.18); under the default
 * {@code essp:4} 12 runs of 12 ended epoch 1 at 3.78-3.84.
 */
class W2vTrainingTest {
    private static final int DIM = 16;
    private static final int EPOCHS = 2;
    private static final int CHUNK_WORDS = 2048;
    private static Vocabulary vocabulary;
    private static CorpusSplit split;

    @BeforeAll
    static void readCorpus() throws IOException {
        Corpus corpus = Corpus.europarl(1200);
        vocabulary = corpus.count(5).vocabulary();
        List<int[]> sentences = new ArrayList<>();
        corpus.forEachSentence(vocabulary, sentences::add);
        split = new CorpusSplit(sentences);
    }

    @Test
    void twoNodesLowerTheHeldOutLossEveryEpochAndTrainEveryWordOnce() throws Exception {
        SgnsSettings settings = new SgnsSettings(5, 5, 0.025f, EPOCHS);
        double[] heldOut = new double[EPOCHS + 1];
        double[][] lossParts = new double[EPOCHS + 1][2];
        long[][] pairParts = new long[EPOCHS + 1][2];
        long[] words = new long[2];
        try (TestCluster cluster = ClusterFixture.inJvm().cluster(2,
                builder -> W2vTables.declare(builder, vocabulary, DIM, 7)
                        .technique(Technique.ADAPTIVE).sampling(SamplingScheme.PRELOCALIZE)
                        .consistency(Consistency.parse(ConsistencyOption.DEFAULT)))) {
            Concurrently.run(2, Duration.ofMinutes(1), id -> {
                AdaPS node = cluster.node(id);
                int[][] share = split.nodeShare(id, 2);
                ChunkSchedule schedule = new ChunkSchedule(share, 1, ChunkSchedule.chunksOf(share, 1, CHUNK_WORDS));
                W2vEvaluator evaluator = new W2vEvaluator(node);
                try (W2vTrainer trainer = new W2vTrainer(node, schedule, new Subsampler(vocabulary, 1e-4), settings,
                        8)) {
                    words[id] = trainer.words();
                    EpochCuts cuts = new EpochCuts(node, Checkpointing.none());
                    for (int epoch = 0; epoch <= EPOCHS; epoch++) {
                        if (epoch > 0) {
                            AtomicLong done = new AtomicLong();
                            cuts.train(trainer, EpochProgress.start(epoch, trainer.steps()), done::addAndGet);
                            W2vTrainer.Epoch trained = trainer.trained();
                            assertThat(done.get()).isEqualTo(trainer.words());
                            assertThat(trained.pairs()).isPositive();
                            assertThat(trained.lossSum() / trained.pairs()).isFinite();
                        }
                        node.barrier();
                        // Each node evaluates its half of the held-out sentences, as W2vRun does.
                        W2vEvaluator.Result part = evaluator.evaluatePart(split.heldOut(), id, 2, 5, 5, 9);
                        lossParts[epoch][id] = part.heldOutLoss();
                        pairParts[epoch][id] = part.heldOutPairs();
                        node.barrier();
                    }
                }
            });
        }
        assertThat(words[0] + words[1]).isEqualTo(split.trainingWords());
        for (int epoch = 0; epoch <= EPOCHS; epoch++) {
            assertThat(pairParts[epoch][0]).isPositive();
            assertThat(pairParts[epoch][1]).isPositive();
            heldOut[epoch] = (lossParts[epoch][0] + lossParts[epoch][1]) / (pairParts[epoch][0] + pairParts[epoch][1]);
        }
        // Output vectors start at zero: every target costs ln 2 at first (the context word and up to
        // 5 negatives: a negative equal to the context word is skipped).
        assertThat(heldOut[0]).isBetween(5.5 * Math.log(2), 6 * Math.log(2) + 1e-6);
        for (int epoch = 1; epoch <= EPOCHS; epoch++) {
            assertThat(heldOut[epoch]).as("held-out loss after epoch %d", epoch).isLessThan(heldOut[epoch - 1]);
        }
    }

    @Test
    void withoutSubSamplingAndAWindowOfOneEveryPairIsTrainedOnceWithIntentPerChunk() {
        SgnsSettings settings = new SgnsSettings(1, 3, 0.025f, 1);
        int[][] sentences = split.nodeShare(0, 1);
        long expectedPairs = 0;
        for (int[] sentence : sentences) {
            expectedPairs += 2L * (sentence.length - 1);
        }
        ChunkSchedule schedule = new ChunkSchedule(sentences, 2, ChunkSchedule.chunksOf(sentences, 2, CHUNK_WORDS));
        Subsampler keepAll = new Subsampler(vocabulary, 0);
        long expectedIntents = 0;
        Chunk chunk = new Chunk(schedule.maxChunkWords(), vocabulary.size());
        for (int t = 0; t < 2; t++) {
            for (int c = 0; c < schedule.chunks(t); c++) {
                chunk.fill(sentences, schedule.chunkFrom(t, c), schedule.chunkTo(t, c), keepAll, new SplittableRandom(1));
                expectedIntents += 2L * chunk.distinctCount();
            }
        }
        try (AdaPS node = W2vTables.declare(AdaPS.builder(), vocabulary, DIM, 7).build();
             W2vTrainer trainer = new W2vTrainer(node, schedule, keepAll, settings, 8)) {
            new EpochCuts(node, Checkpointing.none()).train(trainer, EpochProgress.start(1, trainer.steps()),
                    done -> { });
            W2vTrainer.Epoch trained = trainer.trained();

            assertThat(trained.pairs()).isEqualTo(expectedPairs);
            assertThat(node.metrics().intentsSignaled()).isEqualTo(expectedIntents);
            assertThat(trained.lossSum() / trained.pairs()).isLessThan(4 * Math.log(2));
        }
    }

    @Test
    void anEpochResumedAfterAStepTrainsTheRemainingChunksOnTheSameData() {
        // Two threads of unequal words: their chunks differ in size.
        SgnsSettings settings = new SgnsSettings(5, 5, 0.025f, 2);
        int[][] sentences = split.nodeShare(0, 1);
        ChunkSchedule schedule = new ChunkSchedule(sentences, 2, ChunkSchedule.chunksOf(sentences, 2, CHUNK_WORDS));
        Subsampler subsampler = new Subsampler(vocabulary, 1e-4);
        W2vTrainer.Epoch whole;
        AtomicLong wholeWords = new AtomicLong();
        int steps;
        try (AdaPS node = W2vTables.declare(AdaPS.builder(), vocabulary, DIM, 7).build();
             W2vTrainer trainer = new W2vTrainer(node, schedule, subsampler, settings, 8)) {
            steps = trainer.steps();
            new EpochCuts(node, Checkpointing.none()).train(trainer, EpochProgress.start(2, steps),
                    wholeWords::addAndGet);
            whole = trainer.trained();
        }
        assertThat(steps).isGreaterThan(4);
        int cut = steps / 2;
        AtomicLong words = new AtomicLong();
        long pairs;
        // The run that was cut: epoch 2 up to the cut ...
        try (AdaPS node = W2vTables.declare(AdaPS.builder(), vocabulary, DIM, 7).build();
             W2vTrainer trainer = new W2vTrainer(node, schedule, subsampler, settings, 8)) {
            trainer.begin(2, 0);
            trainer.train(0, cut, words::addAndGet);
            pairs = trainer.trained().pairs();
        }
        // ... and the run that resumed after it: the same sentences, sub-sampled and windowed alike.
        try (AdaPS node = W2vTables.declare(AdaPS.builder(), vocabulary, DIM, 7).build();
             W2vTrainer trainer = new W2vTrainer(node, schedule, subsampler, settings, 8)) {
            long before = words.get();
            long trained = new EpochCuts(node, Checkpointing.none()).train(trainer,
                    new EpochProgress(2, cut, steps, before), words::addAndGet);
            assertThat(trained).isEqualTo(words.get() - before);
            pairs += trainer.trained().pairs();
        }
        assertThat(words.get()).isEqualTo(wholeWords.get())
                .isEqualTo(schedule.threadWords(0) + schedule.threadWords(1));
        assertThat(pairs).isEqualTo(whole.pairs());
    }

    @Test
    void aTrainerRescheduledBetweenEpochsTrainsItsNewShareInTheSameSteps() {
        SgnsSettings settings = new SgnsSettings(5, 5, 0.025f, 2);
        int[][] half = split.share(0, new double[] {0.5, 0.5});
        int chunks = ChunkSchedule.chunksOf(half, 1, CHUNK_WORDS);
        ChunkSchedule larger = new ChunkSchedule(split.share(0, new double[] {0.7, 0.3}), 1, chunks);
        try (AdaPS node = W2vTables.declare(AdaPS.builder(), vocabulary, DIM, 7).build();
             W2vTrainer trainer = new W2vTrainer(node, new ChunkSchedule(half, 1, chunks), new Subsampler(vocabulary,
                     1e-4), settings, 8)) {
            EpochCuts cuts = new EpochCuts(node, Checkpointing.none());
            AtomicLong first = new AtomicLong();
            cuts.train(trainer, EpochProgress.start(1, trainer.steps()), first::addAndGet);
            assertThat(first.get()).isEqualTo(Arrays.stream(half).mapToLong(s -> s.length).sum());

            trainer.reschedule(larger);
            assertThat(trainer.steps()).isEqualTo(chunks);
            assertThat(trainer.words()).isEqualTo(larger.threadWords(0)).isGreaterThan(first.get());
            AtomicLong second = new AtomicLong();
            cuts.train(trainer, EpochProgress.start(2, trainer.steps()), second::addAndGet);
            assertThat(second.get()).isEqualTo(larger.threadWords(0));
            assertThat(trainer.trained().lossSum() / trainer.trained().pairs()).isFinite();

            assertThatThrownBy(() -> trainer.reschedule(new ChunkSchedule(half, 1, chunks + 1)))
                    .hasMessageStartingWith("next=1 threads of up to " + (chunks + 1) + " chunks (expected 1 threads of up to "
                            + chunks + " chunks)");
        }
    }
}
