package io.adaps.sampling;

import static io.adaps.util.Checks.checkNotNull;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

import io.adaps.api.KeyDistribution;
import io.adaps.api.SamplingScheme;

/**
 * A pool of keys drawn from a distribution, each handed out a bounded number of times and then
 * replaced by a fresh draw: the sampling access of NuPS's pool scheme (Renz-Wieland, Gemulla,
 * Kaoudi, Markl, "NuPS: A Parameter Server for Machine Learning with Non-Uniform Parameter
 * Access", SIGMOD 2022). A node keeps one per sampled table, shared by its workers, and keeps its
 * keys local; samples then read local rows although they are drawn from the whole table.
 *
 * <h2>Generations and tickets</h2>
 * The pool hands out <em>tickets</em> {@code 0, 1, 2, ...} from one atomic cursor; a sample of
 * {@code n} rows claims {@code n} consecutive tickets with one {@code getAndAdd} ({@link #claim}).
 * Ticket {@code t} belongs to generation {@code g = t / (size * reuse)}, to round
 * {@code r = (t mod (size * reuse)) / size} of it, and to position {@code i = t mod size} of that
 * round. A generation is {@code size} keys drawn independently from the distribution; round
 * {@code r} hands out each of them once, in the order of a per-round random bijection of the
 * positions ({@code slot = ((i ^ x_r) * m_r) mod size}, {@code size} a power of two, {@code m_r}
 * odd), so that samples of different rounds do not repeat each other's keys in order. Each key of
 * a generation is thus handed out exactly {@code reuse} times, then the generation is over.
 *
 * <h2>Two buffers, a refiller and a sequence check</h2>
 * Generation {@code g} lives in buffer {@code g & 1}. While generation {@code g} is handed out, the
 * other buffer (which held {@code g - 1}) is refilled with generation {@code g + 1} by whoever
 * calls {@link #refill}: a node's adaptive manager in the background (which then also moves
 * intent from the old keys to the new), or a worker inline when the node has no manager. A
 * buffer's {@code published} word holds the generation it contains, or {@code WRITING} while a
 * refiller (the one that won a compare-and-set) draws into it. A reader of ticket {@code t}
 * checks {@code published == g} before and after it reads the keys (an acquire fence between),
 * like an optimistic read of a {@link java.util.concurrent.locks.StampedLock}; if either check
 * fails (the refill is late, or a straggler's buffer was already refilled for {@code g + 2}) it
 * draws fresh keys from the distribution instead (<em>fallback draws</em>). So a reader never
 * waits, never takes a lock, and allocates nothing.
 *
 * <h2>What a sample is</h2>
 * Every key handed out is either a pool entry or a fallback draw, both independent draws from the
 * distribution, and which one a ticket gets depends on timing only, never on the keys: each key
 * handed out is <em>marginally</em> distributed exactly as the distribution. Keys are not
 * independent: a pool entry is handed out up to {@code reuse} times (never more: a reader that
 * might see a newer generation than its ticket's falls back), within {@code size * reuse}
 * consecutive tickets. A sample of {@code n <= size} consecutive tickets of one round holds
 * distinct entries; across rounds, samples share entries.
 *
 * <p>Thread safety: {@link #claim}, {@link #fill} and {@link #needsRefill} from any number of
 * threads; {@link #refill} from any thread (concurrent refills of one buffer are excluded by its
 * compare-and-set; the loser returns at once).
 */
public final class SamplePool {
    /** Hears which keys enter and leave the pool, on the thread that refills it. */
    public interface Listener {
        /** Key {@code row} became a pool entry (once per entry: a key may be several entries). */
        void entered(long row);

        /** Key {@code row} stopped being a pool entry. */
        void left(long row);
    }

    /** A listener that does nothing. */
    public static final Listener IGNORE = new Listener() {
        @Override
        public void entered(long row) {
        }

        @Override
        public void left(long row) {
        }
    };

    private static final long EMPTY = -1;
    private static final long WRITING = Long.MIN_VALUE;
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
    /** The cursor's index in {@link #cursorCell}: its own cache line, away from the array header. */
    private static final int CURSOR = 8;

    private final KeyDistribution distribution;
    private final long rows;
    private final int size;
    private final int sizeBits;
    private final int mask;
    private final int reuse;
    private final long perGeneration;
    private final long[] cursorCell = new long[2 * CURSOR];
    private final AtomicLongArray published = new AtomicLongArray(2);
    private final long[][] keys;
    private final int[][] xors;
    private final int[][] multipliers;
    /** Per buffer: the refiller's draws (validated before any key of the buffer changes) and its random. */
    private final long[][] scratch;
    private final SplittableRandom[] randoms;
    private final LongAdder refills = new LongAdder();

    /**
     * A pool of {@code size} keys drawn from {@code distribution}, each handed out {@code reuse}
     * times; fills the first two generations at once.
     *
     * @param rows the keys must be below this (the table's rows); a draw outside fails the fill
     * @param seed seeds the pool's draws, so runs repeat
     * @throws IllegalArgumentException if {@code size} or {@code reuse} is out of range (see
     *                                  {@link SamplingScheme#checkPoolSize}, {@link SamplingScheme#checkPoolReuse})
     * @throws IllegalStateException    if the distribution draws a key outside {@code [0, rows)}
     */
    public SamplePool(KeyDistribution distribution, long rows, int size, int reuse, long seed) {
        this.distribution = checkNotNull(distribution, "distribution");
        SamplingScheme.checkPoolSize(size);
        SamplingScheme.checkPoolReuse(reuse);
        this.rows = rows;
        this.size = size;
        this.sizeBits = Integer.numberOfTrailingZeros(size);
        this.mask = size - 1;
        this.reuse = reuse;
        this.perGeneration = (long) size * reuse;
        this.keys = new long[2][size];
        this.scratch = new long[2][size];
        this.xors = new int[2][reuse];
        this.multipliers = new int[2][reuse];
        SplittableRandom root = new SplittableRandom(seed);
        this.randoms = new SplittableRandom[] {root.split(), root.split()};
        published.set(0, EMPTY);
        published.set(1, EMPTY);
        if (!refill(0, IGNORE) || !refill(1, IGNORE)) {
            throw new IllegalStateException("the first generations of a new pool were not filled");
        }
    }

    /** Keys per generation. */
    public int size() {
        return size;
    }

    /** How often each key of a generation is handed out. */
    public int reuse() {
        return reuse;
    }

    /** Generations drawn by {@link #refill} (the first two, drawn by the constructor, included). */
    public long refills() {
        return refills.sum();
    }

    /** The generation that the next ticket belongs to. */
    public long generation() {
        return (long) CELLS.getVolatile(cursorCell, CURSOR) / perGeneration;
    }

    /** Claims {@code n} consecutive tickets and returns the first. */
    public long claim(int n) {
        return (long) CELLS.getAndAdd(cursorCell, CURSOR, (long) n);
    }

    /**
     * Writes the keys of tickets {@code [ticket, ticket + n)} to {@code out[offset ..]}: pool
     * entries where their generation is published, else fresh draws from {@code fallback} (the
     * caller's own random).
     *
     * @return how many keys were fallback draws
     */
    public int fill(long ticket, SplittableRandom fallback, long[] out, int offset, int n) {
        int fallbacks = 0;
        long t = ticket;
        int done = 0;
        while (done < n) {
            long generation = t / perGeneration;
            long within = t - generation * perGeneration;
            int segment = (int) Math.min(n - done, perGeneration - within);
            int at = offset + done;
            if (!copy(generation, within, out, at, segment)) {
                for (int j = 0; j < segment; j++) {
                    out[at + j] = drawChecked(fallback);
                }
                fallbacks += segment;
            }
            done += segment;
            t += segment;
        }
        return fallbacks;
    }

    /**
     * Copies {@code count} keys of {@code generation} from position {@code within} on; false (with
     * {@code out} partly overwritten) if the generation was not published throughout.
     */
    private boolean copy(long generation, long within, long[] out, int at, int count) {
        int b = (int) (generation & 1);
        if (published.get(b) != generation) {
            return false;
        }
        long[] entries = keys[b];
        int[] x = xors[b];
        int[] m = multipliers[b];
        int round = (int) (within >>> sizeBits);
        int i = (int) (within & mask);
        int xor = x[round];
        int multiplier = m[round];
        for (int j = 0; j < count; j++) {
            out[at + j] = entries[((i ^ xor) * multiplier) & mask];
            if (++i == size && j + 1 < count) {
                i = 0;
                round++;
                xor = x[round];
                multiplier = m[round];
            }
        }
        // The keys were read before the second look at published (StampedLock.validate's fence).
        VarHandle.acquireFence();
        return published.get(b) == generation;
    }

    /**
     * Whether a refill is due for a caller who claimed up to {@code ticket}: the generation of the
     * ticket or the one after it is neither published nor being drawn. Cheap: two volatile reads
     * of words that change twice per generation.
     */
    public boolean needsRefill(long ticket) {
        return due(ticket) >= 0;
    }

    /** {@link #needsRefill(long)} for the last ticket claimed so far. */
    public boolean needsRefill() {
        return due(lastClaimed()) >= 0;
    }

    /**
     * Draws the first of the generation of the last ticket claimed and the one after it that is
     * missing into its buffer, unless another thread is drawing it; tells {@code listener} of
     * each key that enters and leaves. Costs {@link #size()} draws.
     *
     * @return whether this call drew a generation
     * @throws IllegalStateException if the distribution drew a key outside the table (the buffer
     *                               is then left as it was)
     */
    public boolean refill(Listener listener) {
        long target = due(lastClaimed());
        return target >= 0 && refill(target, listener);
    }

    private long lastClaimed() {
        return Math.max(0, (long) CELLS.getVolatile(cursorCell, CURSOR) - 1);
    }

    /** The generation to draw for a caller at {@code ticket}, or -1 if none (or it is being drawn). */
    private long due(long ticket) {
        long current = ticket / perGeneration;
        for (long target = current; target <= current + 1; target++) {
            long held = published.get((int) (target & 1));
            if (held == WRITING) {
                return -1;
            }
            if (held < target) {
                return target;
            }
        }
        return -1;
    }

    private boolean refill(long target, Listener listener) {
        int b = (int) (target & 1);
        long held = published.get(b);
        if (held == WRITING || held >= target || !published.compareAndSet(b, held, WRITING)) {
            return false;
        }
        boolean done = false;
        try {
            SplittableRandom random = randoms[b];
            long[] next = scratch[b];
            for (int i = 0; i < size; i++) {
                next[i] = drawChecked(random);
            }
            long[] entries = keys[b];
            for (int i = 0; i < size; i++) {
                long old = entries[i];
                entries[i] = next[i];
                listener.entered(next[i]);
                if (held != EMPTY) {
                    listener.left(old);
                }
            }
            for (int r = 0; r < reuse; r++) {
                xors[b][r] = random.nextInt(size);
                multipliers[b][r] = random.nextInt() | 1;
            }
            done = true;
        } finally {
            // Readers see the new keys only with the new generation (a volatile write publishes).
            published.set(b, done ? target : held);
            if (done) {
                refills.increment();
            }
        }
        return true;
    }

    /** Calls {@code action} with every key of the published generations (one call per entry). */
    public void forEachEntry(LongConsumer action) {
        for (int b = 0; b < 2; b++) {
            if (published.get(b) >= 0) {
                for (long key : keys[b]) {
                    action.accept(key);
                }
            }
        }
    }

    private long drawChecked(SplittableRandom random) {
        long row = distribution.draw(random);
        if (row < 0 || row >= rows) {
            throw new IllegalStateException("distribution " + distribution + " drew row " + row + " (expected 0.."
                    + (rows - 1) + ")");
        }
        return row;
    }

    @Override
    public String toString() {
        return "SamplePool[size=" + size + ", reuse=" + reuse + ", generation=" + generation() + "]";
    }
}
