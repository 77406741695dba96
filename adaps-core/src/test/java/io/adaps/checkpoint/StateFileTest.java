package io.adaps.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.adaps.api.CheckpointException;
import io.adaps.api.RestoredCheckpoint.SavedWorker;

/** The state file's placement trailer, and what a file written before it existed reads as. */
class StateFileTest {
    @TempDir
    Path dir;

    @Test
    void theWorkersAndThePlacementComeBackAsWritten() throws Exception {
        NodeState written = new NodeState(2, List.of(new SavedWorker(2, 0, 7, new byte[] {1, 2}),
                new SavedWorker(2, 1, 6, null)), "range", new int[][] {{3, 9, 40}, {}});
        NodeState read = StateFile.read(dir, entry(StateFile.encode(written), 2));

        assertThat(read.node()).isEqualTo(2);
        assertThat(read.partitioning()).isEqualTo("range");
        assertThat(read.placed()).isDeepEqualTo(new int[][] {{3, 9, 40}, {}});
        assertThat(read.workers()).extracting(SavedWorker::worker, SavedWorker::clock).containsExactly(
                tuple(0, 7L), tuple(1, 6L));
        assertThat(read.workers().get(0).state()).containsExactly(1, 2);
        assertThat(read.workers().get(1).state()).isNull();
    }

    @Test
    void aFileWithoutThePlacementTrailerHasWorkersAndNoPlacement() throws Exception {
        ByteBuffer v1 = ByteBuffer.allocate(20 + 16).order(ByteOrder.LITTLE_ENDIAN);
        v1.putLong(StateFile.MAGIC).putInt(1).putInt(0).putInt(1).putInt(0).putLong(5).putInt(-1);
        NodeState read = StateFile.read(dir, entry(v1.array(), 0));

        assertThat(read.partitioning()).isNull();
        assertThat(read.placed()).isEmpty();
        assertThat(read.workers()).singleElement().extracting(SavedWorker::clock).isEqualTo(5L);
    }

    @Test
    void aPlacementWhoseTablesAreOutOfOrderIsRefusedNamingTheFile() throws Exception {
        byte[] bytes = StateFile.encode(new NodeState(0, List.of(), "range", new int[][] {{1}, {2}}));
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length - 12, 5); // second table's id
        FileEntry entry = entry(bytes, 0);

        assertThatThrownBy(() -> StateFile.read(dir, entry)).isInstanceOf(CheckpointException.class)
                .hasMessageContaining(dir.resolve(entry.name()).toString()).hasMessageContaining("out of order");
    }

    /** Writes {@code bytes} as node {@code node}'s state file and returns its manifest entry. */
    private FileEntry entry(byte[] bytes, int node) throws Exception {
        String name = CheckpointFiles.state(1, node);
        Files.write(dir.resolve(name), bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return new FileEntry(name, FileEntry.STATE, -1, node, 0, bytes.length, (int) crc.getValue());
    }
}
