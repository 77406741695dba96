/**
 * Key distributions for sampling: which rows of a table a sample draws, and with what
 * probability. The application supplies a {@link io.adaps.sampling.KeyDistribution} to the
 * sampling API (issue 6: {@code prepareSample(n, fromClock, toClock)} and
 * {@code pullSample(handle, keysOut, valuesOut)}), which draws the sample's keys from it.
 *
 * <p>Built in: {@link io.adaps.sampling.UniformKeys}, uniform over a range of rows, and
 * {@link io.adaps.sampling.AliasTable}, any finite distribution over rows {@code 0..n-1} (Vose's
 * alias method), including word2vec's unigram distribution raised to the 3/4 power. Every
 * distribution reports its exact probabilities, so that tests can check the draws and sampling
 * schemes can reweight by them.
 */
package io.adaps.sampling;
