package io.adaps.examples.w2v;

import static io.adaps.examples.Checks.checkNotNull;
import static io.adaps.examples.Checks.checkPositive;

import io.adaps.api.AdaPS;
import io.adaps.api.AliasTable;
import io.adaps.api.Initializers;
import io.adaps.api.Partitioning;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;
import io.adaps.examples.Seeds;

/**
 * The two tables of a skip-gram model, one row per vocabulary word: {@value #IN}, the input
 * ("word") vectors, which are the embeddings, and {@value #OUT}, the output ("context") vectors.
 * As in word2vec, input vectors start uniform in {@code [-0.5 / dim, 0.5 / dim)} and output
 * vectors at zero, so the first steps move the output vectors and every pair's initial loss is
 * {@code (1 + negatives) * ln 2}. Both use additive updates, because the training threads push the
 * finished SGD steps (so replicas and relocation keep every step). The output table is sampled by
 * negative sampling: its distribution is the unigram distribution raised to
 * {@value #UNIGRAM_POWER}.
 */
final class W2vTables {
    /** Name of the input vectors' table. */
    static final String IN = "w2v.in";
    /** Name of the output vectors' table. */
    static final String OUT = "w2v.out";
    /** The power of the counts in the negative-sampling distribution (word2vec's). */
    static final double UNIGRAM_POWER = 0.75;

    private W2vTables() {
    }

    /**
     * Declares both tables for {@code vocabulary} with vectors of {@code dim} floats on
     * {@code builder}, with {@link Partitioning#HASH hash partitioning}, and returns it; the input
     * vectors' initializer seed is derived from {@code seed}. Word ids run by descending
     * frequency, so range partitioning would make node 0 the home of every frequent word: under
     * {@code STATIC} it would serve most of every other node's accesses.
     */
    static AdaPS.Builder declare(AdaPS.Builder builder, Vocabulary vocabulary, int dim, long seed) {
        checkNotNull(builder, "builder");
        checkNotNull(vocabulary, "vocabulary");
        checkPositive(dim, "dim");
        long[] counts = new long[vocabulary.size()];
        for (int id = 0; id < counts.length; id++) {
            counts[id] = vocabulary.count(id);
        }
        float bound = 0.5f / dim;
        return builder
                .partitioning(Partitioning.HASH)
                .table(TableSpec.of(IN, counts.length, dim)
                        .withInitializer(Initializers.uniform(-bound, bound, Seeds.derive(seed, 0, 0)))
                        .withUpdateRule(UpdateRules.add()))
                .table(TableSpec.of(OUT, counts.length, dim)
                        .withInitializer(Initializers.zeros())
                        .withUpdateRule(UpdateRules.add())
                        .withSampling(AliasTable.unigram(counts, UNIGRAM_POWER)));
    }
}
