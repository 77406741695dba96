package io.adaps.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.AdaPS;
import io.adaps.api.CheckpointException;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;
import io.adaps.api.Worker;

/**
 * What a checkpoint directory survives and what a restore refuses: corrupted, truncated and
 * missing files, a manifest from the future, other tables, an unwritable directory, leftovers of
 * a checkpoint that crashed while being written, and how many checkpoints are kept. Every
 * refusal names the file or table and starts no node; a failed checkpoint leaves the previous
 * ones as they were.
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
        Files.write(manifest, new Manifest(Manifest.FORMAT_VERSION + 1, read.generation(), read.nodes(), read.schema(),
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
        assertThat(manifest.format()).isEqualTo(Manifest.FORMAT_VERSION);
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
                .startsWith("adaps-checkpoint format=" + Manifest.FORMAT_VERSION + "\n");
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
