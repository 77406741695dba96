/**
 * Microbenchmarks of sampling access (issue 6): {@code prepareSample} and {@code pullSample} per
 * {@link io.adaps.api.SamplingScheme}, on one node against plain arrays, and on two nodes in this
 * JVM over loopback Netty.
 */
package io.adaps.bench.sampling;
