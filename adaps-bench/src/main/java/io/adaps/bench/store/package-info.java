/** Microbenchmarks of node-local access: pull and push against plain arrays. */
package io.adaps.bench.store;
