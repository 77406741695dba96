/**
 * The matrix factorization macro benchmarks: one Hogwild SGD epoch through the AdaPS API against the
 * same epoch on plain shared arrays ({@link io.adaps.bench.mf.PlainHogwildMf}), the cost floor a
 * single-node parameter server should come close to; under JMH ({@link io.adaps.bench.mf.MfEpochBenchmark})
 * and as back-to-back pairs in several JVMs ({@link io.adaps.bench.mf.MfEpochPairs}).
 */
package io.adaps.bench.mf;
