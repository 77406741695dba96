/**
 * The node-to-node protocol: message types and the {@link io.adaps.protocol.Message} flyweight
 * with its byte layout, plus the partitioning of keys to home nodes.
 */
package io.adaps.protocol;
