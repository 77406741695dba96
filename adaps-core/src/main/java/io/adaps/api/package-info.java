/**
 * The public API: start a node with {@link io.adaps.api.AdaPS#builder()}, declare tables with
 * {@link io.adaps.api.TableSpec}, and give each training thread a {@link io.adaps.api.Worker}.
 * Update rules and initializers are pluggable through {@link io.adaps.api.UpdateRule} and
 * {@link io.adaps.api.Initializer}.
 */
package io.adaps.api;
