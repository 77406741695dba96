/**
 * The node runtime behind the API: a node, its workers and their table views. Worker calls run
 * on the calling thread against the store.
 */
package io.adaps.node;
