/**
 * Matrix factorization with Hogwild-style SGD on AdaPS: ratings data ({@link io.adaps.examples.mf.MfData}),
 * a synthetic zipf-skewed low-rank generator ({@link io.adaps.examples.mf.SyntheticMatrix}), a Matrix
 * Market reader, the trainer ({@link io.adaps.examples.mf.MfTrainer}) and the {@code mf} subcommand.
 */
package io.adaps.examples.mf;
