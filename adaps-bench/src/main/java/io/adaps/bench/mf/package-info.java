/**
 * The matrix factorization macro benchmark: one Hogwild SGD epoch through the AdaPS API against the
 * same epoch on plain shared arrays ({@link io.adaps.bench.mf.PlainHogwildMf}), the cost floor a
 * single-node parameter server should come close to.
 */
package io.adaps.bench.mf;
