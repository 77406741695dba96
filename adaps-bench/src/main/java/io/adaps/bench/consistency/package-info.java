/** Microbenchmarks of the consistency models' hot paths: advancing a clock, a bounded read. */
package io.adaps.bench.consistency;
