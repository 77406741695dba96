package io.adaps.intent;

import java.util.Arrays;

/**
 * A binary min-heap of intent ids ordered by a clock (an intent's from- or to-clock). Priorities
 * and ids sit in parallel primitive arrays, so a push or pop allocates nothing once the heap has
 * grown to its working size.
 */
final class IntentHeap {
    private long[] clocks = new long[16];
    private int[] ids = new int[16];
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The smallest clock; the heap must not be empty. */
    long minClock() {
        return clocks[0];
    }

    /** The id with the smallest clock; the heap must not be empty. */
    int minId() {
        return ids[0];
    }

    void push(long clock, int id) {
        if (size == clocks.length) {
            clocks = Arrays.copyOf(clocks, size * 2);
            ids = Arrays.copyOf(ids, size * 2);
        }
        int at = size++;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (clocks[parent] <= clock) {
                break;
            }
            clocks[at] = clocks[parent];
            ids[at] = ids[parent];
            at = parent;
        }
        clocks[at] = clock;
        ids[at] = id;
    }

    /** Removes the entry with the smallest clock; the heap must not be empty. */
    void popMin() {
        int last = --size;
        long clock = clocks[last];
        int id = ids[last];
        int at = 0;
        int half = last >>> 1;
        while (at < half) {
            int child = 2 * at + 1;
            if (child + 1 < last && clocks[child + 1] < clocks[child]) {
                child++;
            }
            if (clock <= clocks[child]) {
                break;
            }
            clocks[at] = clocks[child];
            ids[at] = ids[child];
            at = child;
        }
        clocks[at] = clock;
        ids[at] = id;
    }
}
