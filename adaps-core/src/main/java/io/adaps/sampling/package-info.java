/**
 * Sampling access behind {@link io.adaps.api.TableView#prepareSample}: the
 * {@link io.adaps.sampling.Sampler} of each {@link io.adaps.api.SamplingScheme}, the POOL scheme's
 * {@link io.adaps.sampling.SamplePool}, and a worker's {@link io.adaps.sampling.PreparedSamples}.
 * The distributions themselves are public API ({@link io.adaps.api.KeyDistribution}).
 */
package io.adaps.sampling;
