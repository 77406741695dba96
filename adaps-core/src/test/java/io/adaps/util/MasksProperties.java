package io.adaps.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.adaps.testing.Gen;
import io.adaps.testing.Property;

/** The branch-free comparisons agree with Java's own on every pair of longs (and ints), the extremes included. */
class MasksProperties {
    private static final long[] EDGES = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -2, -1, 0, 1, 2, Long.MAX_VALUE - 1,
            Long.MAX_VALUE};

    record Pair(long x, long y) {
        static Pair draw(Gen gen) {
            return new Pair(gen.longs(), gen.booleans() ? gen.longs() : gen.longIn(-3, 3));
        }
    }

    @Test
    void everyPairOfEdgesComparesAsJavaDoes() {
        for (long x : EDGES) {
            for (long y : EDGES) {
                agreesWithJava(new Pair(x, y));
            }
        }
    }

    @Test
    void drawnPairsCompareAsJavaDoes() {
        Property.forAll(1000, Pair::draw, MasksProperties::agreesWithJava);
    }

    private static void agreesWithJava(Pair pair) {
        long x = pair.x();
        long y = pair.y();
        assertThat(Masks.ifLess(x, y)).as("ifLess(%d, %d)", x, y).isEqualTo(x < y ? -1L : 0L);
        assertThat(Masks.min(x, y)).as("min(%d, %d)", x, y).isEqualTo(Math.min(x, y));
        assertThat(Masks.ifEqual(x, y)).as("ifEqual(%d, %d)", x, y).isEqualTo(x == y ? -1L : 0L);
        assertThat(Masks.ifEqual(x, x)).as("ifEqual(%d, %d)", x, x).isEqualTo(-1L);
        int xi = (int) x;
        int yi = (int) y;
        assertThat(Masks.ifEqual(xi, yi)).as("ifEqual(%d, %d) of ints", xi, yi).isEqualTo(xi == yi ? -1 : 0);
    }
}
