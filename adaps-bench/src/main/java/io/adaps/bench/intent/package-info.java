/** Microbenchmarks of the adaptive manager's intent bookkeeping. */
package io.adaps.bench.intent;
