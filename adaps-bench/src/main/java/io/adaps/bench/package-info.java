/** Benchmarks of AdaPS: JMH microbenchmarks by subsystem, and macro benchmarks of training runs. */
package io.adaps.bench;
