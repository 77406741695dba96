package io.adaps.examples;

import static io.adaps.examples.CommandRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExamplesTest {
    /** A small generated problem that trains in a fraction of a second. */
    private static final String[] SMALL = {"--rows=200", "--cols=100", "--entries=20000", "--rank=8", "--epochs=2"};

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
            --rank=0                 ; --rank=0 (expected > 0)
            --epochs=-3              ; --epochs=-3 (expected > 0)
            --threads=0              ; --threads=0 (expected > 0)
            --batch=0                ; --batch=0 (expected > 0)
            --technique=FAST         ; --technique=FAST (expected one of ADAPTIVE, RELOCATION_ONLY, REPLICATION_ONLY, STATIC, FULL_REPLICATION)
            --technique=static       ; --technique=static (expected one of ADAPTIVE, RELOCATION_ONLY, REPLICATION_ONLY, STATIC, FULL_REPLICATION)
            --schedule=DSGD          ; --schedule=DSGD (expected one of HOGWILD, BLOCKED)
            --lr=0                   ; --lr=0.0 (expected a finite value > 0)
            --lr=NaN                 ; --lr=NaN (expected a finite value > 0)
            --reg=-0.5               ; --reg=-0.5 (expected a finite value >= 0)
            --test-fraction=1        ; --test-fraction=1.0 (expected a value in (0, 1))
            --rows=0                 ; --rows=0 (expected > 0)
            --entries=-1             ; --entries=-1 (expected > 0)
            --true-rank=0            ; --true-rank=0 (expected > 0)
            --noise=-1               ; --noise=-1.0 (expected a finite value >= 0)
            --zipf=Infinity          ; --zipf=Infinity (expected a finite value >= 0)
            --rank=abc               ; Invalid value for option '--rank': 'abc' is not an int
            --bogus                  ; Unknown option: '--bogus'
            --test=t.mtx             ; --test=t.mtx (expected only together with --train)
            --train=missing.mtx      ; --train=missing.mtx (expected a readable file)
            --metrics-port=70000     ; --metrics-port=70000 (expected 0..65535)
            --resume                 ; --resume (expected only together with --checkpoint-dir)
            --checkpoint-every=2     ; --checkpoint-every=2 (expected only together with --checkpoint-dir)
            --checkpoint-every=0     ; --checkpoint-every=0 (expected > 0)
            --checkpoint-every=0s    ; --checkpoint-every=0s (expected > 0)
            --checkpoint-every=abc   ; --checkpoint-every=abc (expected EPOCHS or a duration such as 30s)
            --checkpoint-every=30s   ; --checkpoint-every=30s (expected only together with --checkpoint-dir)
            --full-checkpoint-every=3 ; --full-checkpoint-every=3 (expected only together with --checkpoint-dir)
            --full-checkpoint-every=0 ; --full-checkpoint-every=0 (expected >= 1)
            --part=2/2               ; --part=2/2 (expected I/N with 0 <= I < N, e.g. 1/2)
            --part=1                 ; --part=1 (expected I/N with 0 <= I < N, e.g. 1/2)
            --part=-1/2              ; --part=-1/2 (expected I/N with 0 <= I < N, e.g. 1/2)
            """)
    void badFlagsAreUsageErrorsNamingTheFlag(String flag, String message) {
        CommandRun run = run("mf", flag);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(message).contains("Usage: adaps-example mf");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aScheduleTheTechniqueCannotServeIsAUsageError() {
        CommandRun run = run("mf", "--schedule=BLOCKED", "--technique=STATIC");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--schedule=BLOCKED with --technique=STATIC (expected ADAPTIVE or RELOCATION_ONLY: "
                + "the blocked schedule moves each column block to its node)");
    }

    @Test
    void generatorFlagsAreUsageErrorsWithTrainingFiles() throws IOException {
        Path train = writeMatrix("train.mtx", "2 2 1\n1 1 1\n");
        CommandRun run = run("mf", "--train=" + train, "--zipf=2");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--zipf=2.0 (expected only without --train: it shapes generated data)");

        CommandRun withTest = run("mf", "--train=" + train, "--test=" + train, "--test-fraction=0.5");
        assertThat(withTest.exitCode()).isEqualTo(2);
        assertThat(withTest.err()).contains("--test-fraction=0.5 (expected only without --test, which replaces the split)");
    }

    @Test
    void aMissingSubcommandIsAUsageError() {
        CommandRun run = run();
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required subcommand");
    }

    @Test
    void trainsOnGeneratedDataAndReportsEveryEpoch() {
        CommandRun run = run(withSmall("mf"));
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("data: generated 200 x 100, 20000 entries, true rank 10, noise 0.1, zipf 1.1")
                .contains("model: rank 8, lr 0.1, reg 0.01, 2 epoch(s), seed 42")
                .contains("training: 1 node(s) x 2 thread(s), batches of 1024 entries; technique ADAPTIVE, "
                        + "consistency essp:4, Hogwild on the node's rows and its share of the hottest rows, with "
                        + "intent signals for its rows per epoch and its columns per 2 chunks of 256 batches (at least 4 "
                        + "chunks per thread), each 64 batches' entries by 8 blocks of columns")
                .contains("entries: 18000 train, 2000 test, of a 200 x 100 matrix")
                .containsPattern("epoch +0: initial model +train RMSE 0\\.\\d{4}, test RMSE 0\\.\\d{4}")
                .containsPattern("epoch +2: +\\d+\\.\\d\\d s, .* 100\\.0% local, .* train RMSE 0\\.\\d{4}, test RMSE "
                        + "0\\.\\d{4}")
                // Sets: the epoch agreement's, then each of the 3 evaluation rounds' sums.
                .containsPattern("after training, node 0: 2 workers; local pull/push/set \\d+/\\d+/4, remote 0/0/0 "
                        + "\\(100\\.0% local\\)");
    }

    @Test
    void partsTrainedAloneShareTheEntriesAsTheNodesOfACluster() {
        int trained = 0;
        for (int part = 0; part < 2; part++) {
            CommandRun run = run(withSmall("mf", "--threads=1", "--part=" + part + "/2"));
            assertThat(run.exitCode()).as(run.err()).isZero();
            Matcher share = Pattern.compile("part " + part + " of 2, alone: trains on (\\d+) entries, tests on \\d+")
                    .matcher(run.out());
            assertThat(share.find()).as(run.out()).isTrue();
            assertThat(Integer.parseInt(share.group(1))).isPositive();
            trained += Integer.parseInt(share.group(1));
            assertThat(run.out()).contains("training: 1 node(s) x 1 thread(s)")
                    .containsPattern("RESULT epoch=2 seconds=\\d+\\.\\d{3} rmse=0\\.\\d{6} local=1\\.0000 bytes=0 entries="
                            + share.group(1) + "\\R")
                    .containsPattern("CPU node=" + part + " epochs=2-2 ");
        }
        assertThat(trained).as("the parts cover the training entries once").isEqualTo(18000);
    }

    @Test
    void metricsAreServedWhenAPortIsGiven() {
        CommandRun run = run(withSmall("mf", "--metrics-port=0"));
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).containsPattern("node 0: metrics at http://0\\.0\\.0\\.0:\\d+/metrics and in JMX");
    }

    @Test
    void theTechniqueIsAFlag() {
        CommandRun run = run(withSmall("mf", "--technique=STATIC"));
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("batches of 1024 entries; technique STATIC, consistency essp:4, Hogwild schedule");
    }

    @Test
    void theConsistencyModelIsAFlagAndItsStalenessIsReported() {
        CommandRun run = run(withSmall("mf", "--consistency=essp:2"));
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("technique ADAPTIVE, consistency essp:2,")
                .containsPattern("STALENESS table=cols model=essp:2 reads=\\d+ mean=\\d+\\.\\d{3} p99=[0-2] max=[0-2] ");
    }

    @Test
    void aBadConsistencyModelIsRefusedNamingTheOption() {
        CommandRun run = run(withSmall("mf", "--consistency=ssp:-1"));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--consistency='ssp:-1' (expected asp, bsp, ssp:S or essp:S with S in 0..");
    }

    @Test
    void trainsOnMatrixMarketFiles() throws IOException {
        Path train = writeMatrix("train.mtx", "3 2 4\n1 1 1\n2 2 2\n3 1 3\n1 2 4\n");
        Path test = writeMatrix("test.mtx", "3 2 1\n2 1 5\n");
        CommandRun run = run("mf", "--train=" + train, "--test=" + test, "--epochs=1", "--rank=2", "--threads=1");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("entries: 4 train, 1 test, of a 3 x 2 matrix").contains("epoch   1:");
    }

    @Test
    void aTestFileOfAnotherSizeIsAUsageError() throws IOException {
        Path train = writeMatrix("train.mtx", "3 2 1\n1 1 1\n");
        Path test = writeMatrix("test.mtx", "4 2 1\n1 1 1\n");
        CommandRun run = run("mf", "--train=" + train, "--test=" + test);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--test=" + test + " of 4 x 2 (expected 3 x 2, the size of --train=" + train + ")");
    }

    @Test
    void aMalformedFileFailsWithItsLineAndExitCodeOne() throws IOException {
        Path train = writeMatrix("bad.mtx", "3 2 2\n1 1 1\n1 one 2\n");
        CommandRun run = run("mf", "--train=" + train);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("mf: " + train + ": line 4: '1 one 2' (expected 'row col value')");
    }

    @Test
    void aResumedRunContinuesWithTheEpochAfterItsCheckpoint() throws IOException {
        Path checkpoints = dir.resolve("checkpoints");
        String[] flags = {"--threads=1", "--checkpoint-dir=" + checkpoints};
        CommandRun whole = run(withSmall(concat(new String[] {"mf"}, flags)));
        assertThat(whole.exitCode()).isZero();
        assertThat(whole.out()).contains("checkpoint after epoch 1: training paused").contains("checkpoint 2 durable: "
                + checkpoints.resolve("MANIFEST-00000002"));
        // As if the run had died during epoch 2: its checkpoint never got published.
        Files.delete(checkpoints.resolve("MANIFEST-00000002"));
        CommandRun resumed = run(withSmall(concat(new String[] {"mf", "--resume"}, flags)));
        assertThat(resumed.exitCode()).isZero();
        assertThat(resumed.out()).contains("resumed from " + checkpoints.resolve("MANIFEST-00000001") + " after epoch 1")
                .doesNotContain("initial model").doesNotContain("RESULT epoch=1 ");
        // One thread on one node trains the same epoch the same way.
        assertThat(resultLine(resumed.out(), 2).replaceAll("seconds=\\S+ ", "").replaceAll("bytes=\\S+ ", ""))
                .isEqualTo(resultLine(whole.out(), 2).replaceAll("seconds=\\S+ ", "").replaceAll("bytes=\\S+ ", ""));
    }

    @Test
    void withADurationCheckpointsAreTakenAtBarriersAndTheLastAfterTheRun() throws IOException {
        Path checkpoints = dir.resolve("checkpoints");
        // Small batches make chunks of 4,096 entries: 5 steps per epoch, cut after each.
        String[] flags = {"--threads=1", "--batch=64", "--checkpoint-dir=" + checkpoints, "--checkpoint-every=1ms"};
        CommandRun whole = run(withSmall(concat(new String[] {"mf"}, flags)));
        assertThat(whole.exitCode()).as(whole.err()).isZero();
        // Periodic ones at the cuts and other barriers, then the one after the run.
        long newest = newest(whole.out());
        assertThat(newest).isGreaterThan(2);
        try (Stream<Path> files = Files.list(checkpoints)) {
            assertThat(files.map(file -> file.getFileName().toString()).filter(name -> name.startsWith("MANIFEST-")))
                    .containsExactlyInAnyOrder(String.format("MANIFEST-%08d", newest - 1),
                            String.format("MANIFEST-%08d", newest));
        }
        CommandRun resumed = run(withSmall(concat(new String[] {"mf", "--resume"}, flags)));
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("resumed from " + checkpoints.resolve(String.format("MANIFEST-%08d", newest))
                + " after epoch 2").doesNotContain("RESULT");
        assertThat(newest(resumed.out())).isGreaterThan(newest);
    }

    @Test
    void withIncrementsARunResumesThroughTheChainOfItsNewestCheckpoint() throws IOException {
        Path checkpoints = dir.resolve("checkpoints");
        String[] flags = {"--threads=1", "--batch=64", "--checkpoint-dir=" + checkpoints, "--checkpoint-every=1ms",
                "--full-checkpoint-every=3"};
        CommandRun whole = run(withSmall(concat(new String[] {"mf"}, flags)));
        assertThat(whole.exitCode()).as(whole.err()).isZero();
        long newest = newest(whole.out());
        // Every third is full; the newest and the checkpoints its chain needs stay (at most 2 + 3 - 1).
        try (Stream<Path> files = Files.list(checkpoints)) {
            List<Path> manifests = files.filter(file -> file.getFileName().toString().startsWith("MANIFEST-")).toList();
            assertThat(manifests).hasSizeBetween(2, 4);
        }
        String newestManifest = Files.readString(checkpoints.resolve(String.format("MANIFEST-%08d", newest)));
        assertThat(newestManifest).contains(newest % 3 == 1 ? "format=1" : "base=" + (newest - 1));
        CommandRun resumed = run(withSmall(concat(new String[] {"mf", "--resume"}, flags)));
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("resumed from " + checkpoints.resolve(String.format("MANIFEST-%08d", newest)));
    }

    /** The newest checkpoint a run reported durable. */
    private static long newest(String out) {
        Matcher durable = Pattern.compile("checkpoint (\\d+) durable: ").matcher(out);
        long newest = 0;
        while (durable.find()) {
            newest = Long.parseLong(durable.group(1));
        }
        return newest;
    }

    private static String resultLine(String out, int epoch) {
        return out.lines().filter(line -> line.startsWith("RESULT epoch=" + epoch + " ")).findFirst().orElseThrow();
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private Path writeMatrix(String name, String body) throws IOException {
        return Files.writeString(dir.resolve(name), "%%MatrixMarket matrix coordinate real general\n" + body);
    }

    /** {@code args} followed by the flags of {@link #SMALL}. */
    private static String[] withSmall(String... args) {
        String[] all = Arrays.copyOf(args, args.length + SMALL.length);
        System.arraycopy(SMALL, 0, all, args.length, SMALL.length);
        return all;
    }
}
