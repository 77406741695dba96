package io.adaps.rpc;

import java.util.concurrent.atomic.AtomicIntegerArray;

import io.adaps.keys.RowKey;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * Counts this node's pushes that are on their way to other nodes, per key stripe, so that a new
 * replica is first fetched only after every push its node's workers sent for the key before the
 * replica existed has been applied at the owner. Otherwise a worker could push a key remotely, see
 * the push acknowledged, and then read a replica fetched just before the push arrived: a
 * read-your-writes violation.
 *
 * <p>The handshake with the manager is Dekker's: a worker whose push found no local copy first
 * counts it here, then looks again (and pushes locally if a replica appeared meanwhile); the
 * manager first installs the replica, then waits until the key's stripe is empty. Both sides put
 * a full fence between their write and their read (the counter update is a volatile
 * read-modify-write; the manager fences explicitly), so at least one of them sees the other.
 * Keys share {@value #STRIPES} stripes: a busy neighbour only makes the manager wait longer.
 */
public final class InFlightPushes {
    static final int STRIPES = 1 << 14;
    private final AtomicIntegerArray counts = new AtomicIntegerArray(STRIPES);

    private static int stripe(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 50); // the top 14 bits
    }

    /** Counts a push of {@code key} that is about to be sent. */
    public void add(long key) {
        counts.getAndIncrement(stripe(key));
    }

    /** Uncounts a push of {@code key} that was answered (or failed). */
    public void remove(long key) {
        counts.getAndDecrement(stripe(key));
    }

    /** Uncounts the pushes of {@code count} rows of {@code table} from {@code rows[first ..]}. */
    void remove(int table, LongArrayList rows, int first, int count) {
        for (int i = first; i < first + count; i++) {
            remove(RowKey.of(table, rows.getLong(i)));
        }
    }

    /** Whether a push of any of {@code keys} may be on its way (or one of a key sharing its stripe). */
    public boolean anyOf(LongArrayList keys) {
        for (int i = 0; i < keys.size(); i++) {
            if (counts.get(stripe(keys.getLong(i))) != 0) {
                return true;
            }
        }
        return false;
    }
}
