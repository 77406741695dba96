/**
 * Macro benchmarks that run whole training programs as separate processes: the comparison of
 * AdaPS's techniques on the {@code mf} example ({@link io.adaps.bench.macro.TechniqueComparison}).
 */
package io.adaps.bench.macro;
