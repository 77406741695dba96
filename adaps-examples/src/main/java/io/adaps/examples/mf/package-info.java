/**
 * Matrix factorization with Hogwild-style SGD on AdaPS: ratings data ({@link io.adaps.examples.mf.MfData}),
 * a synthetic zipf-skewed low-rank generator ({@link io.adaps.examples.mf.SyntheticMatrix}), a Matrix
 * Market reader, the batched SGD kernel and trainer ({@link io.adaps.examples.mf.MfTrainer}), the
 * cluster-wide evaluation ({@link io.adaps.examples.mf.ClusterRmse}) and the {@code mf} subcommand,
 * which runs on a single node or as one node of a cluster.
 */
package io.adaps.examples.mf;
