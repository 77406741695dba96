/**
 * Macro benchmarks that run whole training programs as separate processes: the comparison of
 * AdaPS's techniques and sampling schemes on the {@code mf} and {@code w2v} examples
 * ({@link io.adaps.bench.macro.TechniqueComparison}), which writes its tables, headline ratios and
 * charts into the generated region of {@code docs/benchmarks.md}.
 */
package io.adaps.bench.macro;
