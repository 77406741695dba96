package io.adaps.intent;

import java.util.ArrayList;

/**
 * Reusable {@code long[]}s in power-of-two sizes, so that storing the keys of an intent allocates
 * only while the pool warms up. Workers tend to signal batches of similar size, so a handful of
 * size classes serve them all. Single-threaded.
 */
final class LongArrayPool {
    private final ArrayList<ArrayList<long[]>> free = new ArrayList<>();

    LongArrayPool() {
        for (int sizeClass = 0; sizeClass < Integer.SIZE; sizeClass++) {
            free.add(new ArrayList<>());
        }
    }

    /** An array of at least {@code length} elements (length >= 1), of unspecified content. */
    long[] take(int length) {
        int sizeClass = Integer.SIZE - Integer.numberOfLeadingZeros(length - 1);
        ArrayList<long[]> arrays = free.get(sizeClass);
        return arrays.isEmpty() ? new long[1 << sizeClass] : arrays.remove(arrays.size() - 1);
    }

    /** Returns an array obtained from {@link #take}. */
    void give(long[] array) {
        free.get(Integer.numberOfTrailingZeros(array.length)).add(array);
    }
}
