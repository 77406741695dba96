package io.adaps.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointException;
import io.adaps.api.CheckpointTicket;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;

/**
 * What a checkpoint directory survives and what a restore refuses: corrupted, truncated and
 * missing files, a manifest from the future, other tables, an unwritable directory, leftovers of
 * a checkpoint that crashed while being written, and how many checkpoints are kept; the same
 * for chains of increments, damaged anywhere. Every refusal names the file or table and starts no
 * node; a failed checkpoint leaves the previous ones as they were.
 */
class CheckpointSafetyTest {
    private static final TableSpec USERS = TableSpec.of("users", 100, 4)
            .withInitializer(Initializers.normal(0f, 0.1f, 3)).withUpdateRule(UpdateRules.adagrad(0.05f, 1e-6f));
    private static final TableSpec ITEMS = TableSpec.of("items", 50, 2);

    @TempDir
    Path dir;

    private static AdaPS.Builder builder() {
        return AdaPS.builder().table(USERS).table(ITEMS);
    }

    /** Trains a little, checkpoints, and returns every row's value as read back. */
    private float[][] checkpointOnce(AdaPS node, float step) {
        try (Worker worker = node.worker()) {
            float[] gradient = new float[4];
            for (long row = 0; row < USERS.rows(); row += 3) {
                gradient[(int) row % 4] = step;
                worker.table("users").push(row, gradient, 0);
            }
            worker.table("items").push(7, new float[] {step, -step}, 0);
            worker.checkpointState(new byte[] {(byte) step});
            worker.advanceClock();
            worker.advanceClock();
        }
        node.checkpoint(dir);
        return values(node);
    }

    private static float[][] values(AdaPS node) {
        try (Worker worker = node.worker()) {
            float[][] values = new float[(int) (USERS.rows() + ITEMS.rows())][];
            for (long key = 0; key < values.length; key++) {
                values[(int) key] = new float[key < USERS.rows() ? 4 : 2];
                worker.pull(key, values[(int) key], 0);
            }
            return values;
        }
    }

    private Path dataFile(long generation, int table) {
        return dir.resolve(CheckpointFiles.data(generation, table, 0));
    }

    @Test
    void closingANodeWaitsForTheCheckpointItIsStillWriting() {
        TableSpec large = TableSpec.of("large", 1 << 18, 16).withInitializer(Initializers.normal(0f, 1f, 5));
        try (AdaPS node = AdaPS.builder().table(large).build()) {
            CheckpointTicket ticket = node.checkpointAsync(dir);
            node.close();
            // 16 MiB still to write and force when the call returned: close() waited for them.
            assertThat(ticket.isDone()).isTrue();
            assertThat(dir.resolve(CheckpointFiles.manifest(1))).exists();
        }
        try (AdaPS restored = AdaPS.builder().table(large).restoreFrom(dir).build()) {
            assertThat(restored.restoredFrom()).hasValueSatisfying(r -> assertThat(r.generation()).isEqualTo(1));
        }
    }

    @Test
    void aRestoredNodeHasTheValuesAndTheWorkersState() {
        float[][] saved;
        try (AdaPS node = builder().build()) {
            saved = checkpointOnce(node, 1f);
        }
        try (AdaPS node = builder().restoreFrom(dir).build()) {
            assertThat(values(node)).isDeepEqualTo(saved);
            assertThat(node.restoredFrom()).hasValueSatisfying(restored -> {
                assertThat(restored.generation()).isEqualTo(1);
                assertThat(restored.nodes()).isEqualTo(1);
                assertThat(restored.state(0, 0)).hasValueSatisfying(state -> assertThat(state).containsExactly(1));
            });
            try (Worker worker = node.worker()) {
                assertThat(worker.restoredState()).hasValueSatisfying(state -> assertThat(state).containsExactly(1));
            }
        }
    }

    @Test
    void aCorruptedByteIsRefusedNamingTheFile() throws IOException {
        try (AdaPS node = builder().build()) {
            checkpointOnce(node, 1f);
        }
        Path file = dataFile(1, 0);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(raf.length() / 2);
            int b = raf.read();
            raf.seek(raf.length() / 2);
            raf.write(b ^ 0x10);
        }
        assertThatThrownBy(() -> builder().restoreFrom(dir).build()).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("corrupted").hasMessageContaining("users");
    }

    @Test
    void aTruncatedFileIsRefusedNamingTheFile() throws IOException {
        try (AdaPS node = builder().build()) {
            checkpointOnce(node, 1f);
        }
        Path file = dataFile(1, 1);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() - 5);
        }
        assertThatThrownBy(() -> builder().restoreFrom(dir).build()).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("truncated");
    }

    @Test
    void aMissingManifestIsRefused() throws IOException {
        try (AdaPS node = builder().build()) {
            checkpointOnce(node, 1f);
        }
        Files.delete(dir.resolve(CheckpointFiles.manifest(1)));
        assertThatThrownBy(() -> builder().restoreFrom(dir).build()).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(dir.toString()).hasMessageContaining("no MANIFEST");
    }

    @Test
    void aCorruptedManifestIsRefused() throws IOException {
        try (AdaPS node = builder().build()) {
            checkpointOnce(node, 1f);
        }
        Path manifest = dir.resolve(CheckpointFiles.manifest(1));
        String text = Files.readString(manifest).replace("nodes=1", "nodes=2");
        Files.writeString(manifest, text);
        assertThatThrownBy(() -> builder().restoreFrom(dir).build()).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(manifest.toString()).hasMessageContaining("corrupted");
    }

    @Test
    void aFormatFromTheFutureIsRefused() throws IOException {
        try (AdaPS node = builder().build()) {
            checkpointOnce(node, 1f);
        }
        Path manifest = dir.resolve(CheckpointFiles.manifest(1));
        Manifest read = Manifest.read(manifest);
        Files.write(manifest, new Manifest(Manifest.FORMAT_VERSION + 1, read.generation(), 0, read.nodes(), read.schema(),
                read.clocks(), read.files()).toBytes());
        assertThatThrownBy(() -> builder().restoreFrom(dir).build()).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(manifest.toString()).hasMessageContaining("format=" + (Manifest.FORMAT_VERSION + 1))
                .hasMessageContaining("newer");
    }

    @Test
    void otherTablesAreRefusedNamingTheTable() {
        try (AdaPS node = builder().build()) {
            checkpointOnce(node, 1f);
        }
        assertThatThrownBy(() -> AdaPS.builder().table(USERS).table(TableSpec.of("items", 51, 2)).restoreFrom(dir).build())
                .isInstanceOf(CheckpointException.class).hasMessageContaining("items:50x2").hasMessageContaining("items:51x2");
        assertThatThrownBy(() -> AdaPS.builder().table(USERS.withUpdateRule(UpdateRules.sgd(0.1f))).table(ITEMS)
                .restoreFrom(dir).build()).isInstanceOf(CheckpointException.class).hasMessageContaining("users");
    }

    @Test
    void anUnwritableDirectoryIsRefusedChangingNothing() throws IOException {
        try (AdaPS node = builder().build()) {
            checkpointOnce(node, 1f);
            Map<String, byte[]> before = contents(dir);
            Path file = dir.resolve("not-a-directory");
            Files.writeString(file, "x");
            Path below = file.resolve("checkpoints");
            assertThatThrownBy(() -> node.checkpoint(below)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("dir=" + below);
            Files.delete(file);
            assertThat(contents(dir)).containsOnlyKeys(before.keySet());
            node.checkpoint(dir); // the node goes on: the next checkpoint works
        }
    }

    @Test
    void leftoversOfACrashedCheckpointLeaveThePreviousOneValid() throws IOException {
        float[][] saved;
        try (AdaPS node = builder().build()) {
            saved = checkpointOnce(node, 1f);
            // A crash while writing generation 2: half a data file, temporary files, no manifest.
            byte[] data = Files.readAllBytes(dataFile(1, 0));
            Files.write(dataFile(2, 0), java.util.Arrays.copyOf(data, data.length / 2));
            Files.write(dir.resolve(CheckpointFiles.data(2, 1, 0) + CheckpointFiles.TMP), new byte[] {1, 2, 3});
            Files.writeString(dir.resolve(CheckpointFiles.manifest(2) + CheckpointFiles.TMP), "adaps-checkpoint format=1\ngen");
        }
        try (AdaPS node = builder().restoreFrom(dir).build()) {
            assertThat(values(node)).isDeepEqualTo(saved);
            assertThat(node.restoredFrom().orElseThrow().generation()).isEqualTo(1);
            // The next checkpoint takes generation 2 over and cleans up after itself.
            node.checkpoint(dir);
        }
        assertThat(names(dir)).containsExactlyInAnyOrder(CheckpointFiles.manifest(1), CheckpointFiles.data(1, 0, 0),
                CheckpointFiles.data(1, 1, 0), CheckpointFiles.state(1, 0), CheckpointFiles.manifest(2),
                CheckpointFiles.data(2, 0, 0), CheckpointFiles.data(2, 1, 0), CheckpointFiles.state(2, 0));
    }

    @Test
    void theNewestCheckpointsAreKeptAndTheNewestIsRestored() throws IOException {
        float[][] last = null;
        try (AdaPS node = builder().checkpointsKept(2).build()) {
            for (int i = 1; i <= 4; i++) {
                last = checkpointOnce(node, i);
            }
        }
        assertThat(names(dir)).containsExactlyInAnyOrder(CheckpointFiles.manifest(3), CheckpointFiles.data(3, 0, 0),
                CheckpointFiles.data(3, 1, 0), CheckpointFiles.state(3, 0), CheckpointFiles.manifest(4),
                CheckpointFiles.data(4, 0, 0), CheckpointFiles.data(4, 1, 0), CheckpointFiles.state(4, 0));
        try (AdaPS node = builder().restoreFrom(dir).build()) {
            assertThat(values(node)).isDeepEqualTo(last);
            assertThat(node.restoredFrom().orElseThrow().state(0, 0)).hasValueSatisfying(
                    state -> assertThat(state).containsExactly(4));
        }
    }

    @Test
    void theManifestListsEveryFileWithItsSizeAndChecksum() throws IOException {
        try (AdaPS node = builder().build()) {
            checkpointOnce(node, 1f);
        }
        Manifest manifest = Manifest.read(dir.resolve(CheckpointFiles.manifest(1)));
        assertThat(manifest.format()).as("a full checkpoint, in the first format").isEqualTo(Manifest.FULL_FORMAT);
        assertThat(manifest.nodes()).isEqualTo(1);
        assertThat(manifest.schema()).startsWith("users:100x4:").contains(";items:50x2:");
        assertThat(manifest.clocks()).as("node/worker:clock").isEqualTo("0/0:2");
        assertThat(manifest.files()).extracting(FileEntry::name).containsExactly(CheckpointFiles.data(1, 0, 0),
                CheckpointFiles.data(1, 1, 0), CheckpointFiles.state(1, 0));
        for (FileEntry file : manifest.files()) {
            assertThat(Files.size(dir.resolve(file.name()))).isEqualTo(file.size());
            java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
            crc.update(Files.readAllBytes(dir.resolve(file.name())));
            assertThat((int) crc.getValue()).isEqualTo(file.crc());
        }
        assertThat(manifest.dataFiles(0).get(0).rows()).isEqualTo(100);
        assertThat(manifest.dataFiles(0).get(0).size()).isEqualTo(DataFile.HEADER_BYTES + 100 * (4 + 4 * 8));
        assertThat(new String(Files.readAllBytes(dir.resolve(CheckpointFiles.manifest(1))), StandardCharsets.UTF_8))
                .startsWith("adaps-checkpoint format=" + Manifest.FULL_FORMAT + "\n");
    }

    /** Damage done to the full checkpoint under an increment, and a word its refusal must say. */
    enum Damage {
        CORRUPTED_BYTE("corrupted"), TRUNCATED_FILE("truncated"), MISSING_FILE("missing"), MISSING_MANIFEST("missing");

        final String word;

        Damage(String word) {
            this.word = word;
        }

        /** Damages checkpoint {@code generation} in {@code dir}; returns the file damaged. */
        Path apply(Path dir, long generation) throws IOException {
            Path file = dir.resolve(this == MISSING_MANIFEST ? CheckpointFiles.manifest(generation)
                    : CheckpointFiles.data(generation, 0, 0));
            switch (this) {
                case CORRUPTED_BYTE -> {
                    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                        raf.seek(raf.length() / 2);
                        int b = raf.read();
                        raf.seek(raf.length() / 2);
                        raf.write(b ^ 0x10);
                    }
                }
                case TRUNCATED_FILE -> {
                    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                        raf.setLength(raf.length() - 5);
                    }
                }
                default -> Files.delete(file);
            }
            return file;
        }
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void damageToTheFullCheckpointUnderIncrementsIsRefusedNamingTheFileAndChangingNothing(Damage damage)
            throws IOException {
        try (AdaPS node = builder().fullCheckpointEvery(3).build()) {
            for (int i = 1; i <= 3; i++) {
                checkpointOnce(node, i);
            }
        }
        assertThat(Manifest.read(dir.resolve(CheckpointFiles.manifest(3))).base()).isEqualTo(2);
        Path damaged = damage.apply(dir, 1);
        Map<String, byte[]> before = contents(dir);
        assertThatThrownBy(() -> builder().restoreFrom(dir).build()).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(damaged.toString()).hasMessageContaining(damage.word);
        assertThat(contents(dir)).as("the directory, after the refusal").usingRecursiveComparison().isEqualTo(before);
    }

    /**
     * Retention counts restorable checkpoints: the newest {@code kept}, each with every checkpoint
     * its chain needs, and nothing else.
     */
    @Test
    void theNewestCheckpointsAreKeptWithEveryCheckpointTheyBuildOn() throws IOException {
        int fullEvery = 3;
        int kept = 2;
        try (AdaPS node = builder().checkpointsKept(kept).fullCheckpointEvery(fullEvery).build()) {
            for (long g = 1; g <= 8; g++) {
                float[][] last = checkpointOnce(node, g);
                Set<Long> needed = new TreeSet<>();
                for (long newest = Math.max(1, g - kept + 1); newest <= g; newest++) {
                    for (long chain = (newest - 1) / fullEvery * fullEvery + 1; chain <= newest; chain++) {
                        needed.add(chain);
                    }
                }
                List<String> expected = new ArrayList<>();
                for (long generation : needed) {
                    expected.addAll(List.of(CheckpointFiles.manifest(generation), CheckpointFiles.data(generation, 0, 0),
                            CheckpointFiles.data(generation, 1, 0), CheckpointFiles.state(generation, 0)));
                }
                assertThat(names(dir)).as("after checkpoint %d", g).containsExactlyInAnyOrderElementsOf(expected);
                for (long newest = Math.max(1, g - kept + 1); newest <= g; newest++) {
                    for (Manifest manifest : CheckpointChain.read(dir, dir.resolve(CheckpointFiles.manifest(newest)))) {
                        assertThat(manifest.files()).allSatisfy(file -> assertThat(dir.resolve(file.name())).exists());
                    }
                }
                if (g % 4 == 0) {
                    try (AdaPS restored = builder().restoreFrom(dir).build()) {
                        assertThat(values(restored)).as("restored after checkpoint %d", g).isDeepEqualTo(last);
                    }
                }
            }
        }
    }

    /**
     * A node whose versions are not those of the base (its last attempt failed after it copied
     * its rows) saves every row it owns in the increment: no row written before the failed
     * attempt is lost.
     */
    @Test
    void anIncrementAfterAFailedAttemptLosesNoRowWrittenBeforeIt() throws IOException {
        float[][] saved;
        try (AdaPS node = builder().fullCheckpointEvery(3).build()) {
            checkpointOnce(node, 1f);
            Path obstacle = Files.createDirectory(dir.resolve(CheckpointFiles.data(2, 0, 0) + CheckpointFiles.TMP));
            assertThatThrownBy(() -> checkpointOnce(node, 2f)).isInstanceOf(CheckpointException.class);
            Files.delete(obstacle);
            try (Worker worker = node.worker()) {
                worker.table("items").push(3, new float[] {5f, 5f}, 0);
            }
            node.checkpoint(dir);
            saved = values(node);
        }
        Manifest manifest = Manifest.read(dir.resolve(CheckpointFiles.manifest(2)));
        assertThat(manifest.base()).isEqualTo(1);
        assertThat(manifest.dataFiles(0).get(0).rows()).as("every row of users").isEqualTo(USERS.rows());
        try (AdaPS node = builder().restoreFrom(dir).build()) {
            assertThat(values(node)).isDeepEqualTo(saved);
        }
    }

    /** A restored node's rows hold its checkpoint's values: the next increment holds only the rows written since. */
    @Test
    void aRestoredNodesIncrementHoldsOnlyTheRowsWrittenSinceTheRestore() throws IOException {
        try (AdaPS node = builder().fullCheckpointEvery(3).build()) {
            checkpointOnce(node, 1f);
        }
        float[][] saved;
        try (AdaPS node = builder().fullCheckpointEvery(3).restoreFrom(dir).build()) {
            try (Worker worker = node.worker()) {
                worker.table("users").push(17, new float[] {1f, 0f, 0f, 0f}, 0);
                worker.table("users").set(99, new float[] {2f, 2f, 2f, 2f}, 0);
            }
            node.checkpoint(dir);
            saved = values(node);
        }
        Manifest manifest = Manifest.read(dir.resolve(CheckpointFiles.manifest(2)));
        assertThat(manifest.base()).isEqualTo(1);
        assertThat(manifest.dataFiles(0).get(0).rows()).isEqualTo(2);
        assertThat(manifest.dataFiles(1).get(0).rows()).isZero();
        assertThat(manifest.dataFiles(1).get(0).size()).isEqualTo(DataFile.HEADER_BYTES);
        try (AdaPS node = builder().restoreFrom(dir).build()) {
            assertThat(values(node)).isDeepEqualTo(saved);
        }
    }

    @Test
    void badArgumentsAreRefusedNamingTheValue() {
        assertThatThrownBy(() -> builder().fullCheckpointEvery(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fullCheckpointEvery=0 (expected >= 1)");
        assertThatThrownBy(() -> builder().fullCheckpointEvery(-2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fullCheckpointEvery=-2 (expected >= 1)");
        assertThatThrownBy(() -> builder().checkpointsKept(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("checkpointsKept=0 (expected >= 1)");
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString()).toList();
        }
    }

    private static Map<String, byte[]> contents(Path dir) throws IOException {
        Map<String, byte[]> contents = new TreeMap<>();
        for (String name : names(dir)) {
            contents.put(name, Files.readAllBytes(dir.resolve(name)));
        }
        return contents;
    }
}
