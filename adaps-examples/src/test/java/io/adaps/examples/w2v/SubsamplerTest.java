package io.adaps.examples.w2v;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class SubsamplerTest {
    /** Word "a" 10,000 times (f = 0.9901), "b" 99 times (f = 0.0098), "c" once (f = 9.9e-5). */
    private static Vocabulary skewed() {
        Vocabulary.Builder builder = new Vocabulary.Builder();
        for (int i = 0; i < 10_000; i++) {
            builder.add("a");
        }
        for (int i = 0; i < 99; i++) {
            builder.add("b");
        }
        builder.add("c");
        return builder.build(1);
    }

    @Test
    void keepProbabilitiesFollowTheWord2vecCode() {
        Vocabulary vocabulary = skewed();
        double t = 1e-3;

        Subsampler subsampler = new Subsampler(vocabulary, t);

        // The C code: ran = (sqrt(cn / (sample * train_words)) + 1) * (sample * train_words) / cn.
        double a = (Math.sqrt(10_000 / (t * 10_100)) + 1) * (t * 10_100) / 10_000;
        double b = (Math.sqrt(99 / (t * 10_100)) + 1) * (t * 10_100) / 99;
        assertThat(subsampler.keepProbability(0)).isCloseTo(a, offset(1e-15));
        assertThat(subsampler.keepProbability(1)).isCloseTo(b, offset(1e-15));
        assertThat(a).isCloseTo(0.03279, offset(1e-5));
        assertThat(b).isCloseTo(0.42143, offset(1e-5));
        // f(c) < t: sqrt(t / f) + t / f > 1, always kept.
        assertThat(subsampler.keepProbability(2)).isEqualTo(1.0);
    }

    @Test
    void thresholdZeroKeepsEverything() {
        Subsampler subsampler = new Subsampler(skewed(), 0);
        int[] sentence = {0, 0, 1, 2, 0};

        assertThat(subsampler.keepProbability(0)).isEqualTo(1.0);
        assertThat(kept(subsampler, sentence, 1)).containsExactly(sentence);
    }

    @Test
    void keptFractionMatchesTheProbabilityWithinFourStandardDeviations() {
        Subsampler subsampler = new Subsampler(skewed(), Subsampler.DEFAULT_THRESHOLD);
        int n = 200_000;
        int[] sentence = new int[n];
        Arrays.fill(sentence, 1);
        double p = subsampler.keepProbability(1);

        int kept = kept(subsampler, sentence, 42).length;

        double sigma = Math.sqrt(n * p * (1 - p));
        assertThat((double) kept).isCloseTo(n * p, offset(4 * sigma));
    }

    @Test
    void sampleKeepsOrderAndIsDeterministicPerSeed() {
        Subsampler subsampler = new Subsampler(skewed(), Subsampler.DEFAULT_THRESHOLD);
        int[] sentence = new int[1_000];
        for (int i = 0; i < sentence.length; i++) {
            sentence[i] = i % 3;
        }
        int[] copy = sentence.clone();

        int[] first = kept(subsampler, sentence, 7);
        int[] second = kept(subsampler, sentence, 7);

        assertThat(second).containsExactly(first);
        assertThat(sentence).containsExactly(copy);
        assertThat(isSubsequence(first, sentence)).isTrue();
        // The rare word is always kept, the frequent ones are not.
        assertThat(Arrays.stream(first).filter(id -> id == 2).count()).isEqualTo(333);
        assertThat(first.length).isLessThan(sentence.length);
    }

    /** The ids of {@code sentence} that sub-sampling keeps with a random of {@code seed}, written after a marker. */
    private static int[] kept(Subsampler subsampler, int[] sentence, long seed) {
        int[] out = new int[sentence.length + 1];
        out[0] = -7;
        int size = subsampler.sample(sentence, new SplittableRandom(seed), out, 1);
        assertThat(out[0]).as("left alone before the offset").isEqualTo(-7);
        return Arrays.copyOfRange(out, 1, 1 + size);
    }

    private static boolean isSubsequence(int[] part, int[] whole) {
        int i = 0;
        for (int id : whole) {
            if (i < part.length && part[i] == id) {
                i++;
            }
        }
        return i == part.length;
    }

    @Test
    void refusesBadArgumentsNamingThem() {
        Vocabulary vocabulary = skewed();

        assertThatThrownBy(() -> new Subsampler(vocabulary, -1e-4))
                .hasMessage("threshold=-1.0E-4 (expected a finite value >= 0)");
        assertThatThrownBy(() -> new Subsampler(vocabulary, Double.NaN))
                .hasMessage("threshold=NaN (expected a finite value >= 0)");
        assertThatThrownBy(() -> new Subsampler(vocabulary, 1e-4).keepProbability(3))
                .hasMessage("id=3 (expected 0..2)");
    }
}
