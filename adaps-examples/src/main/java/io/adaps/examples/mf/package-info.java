/**
 * Matrix factorization with parallel SGD on AdaPS: ratings data ({@link io.adaps.examples.mf.MfData}),
 * a synthetic zipf-skewed low-rank generator ({@link io.adaps.examples.mf.SyntheticMatrix}), a Matrix
 * Market reader, the batched SGD kernel and trainer ({@link io.adaps.examples.mf.MfTrainer}) with its
 * three schedules (Hogwild; Hogwild with intent signals per group of chunks of mini-batches,
 * {@link io.adaps.examples.mf.IntentSchedule}, that lets the library place parameters ahead of use;
 * and the blocked schedule of distributed SGD that relocates parameters ahead of use,
 * {@link io.adaps.examples.mf.BlockSchedule}), the cluster-wide evaluation
 * ({@link io.adaps.examples.mf.ClusterStats}) and the {@code mf} subcommand, which runs on a single
 * node or as one node of a cluster.
 */
package io.adaps.examples.mf;
