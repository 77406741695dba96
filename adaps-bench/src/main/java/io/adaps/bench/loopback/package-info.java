/** Clusters of AdaPS nodes in one JVM over loopback Netty, shared by the benchmarks. */
package io.adaps.bench.loopback;
