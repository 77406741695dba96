/**
 * The node-to-node protocol: message types, the {@link io.adaps.protocol.Message} flyweight with
 * its byte layout, the {@link io.adaps.protocol.MessageBatcher} that every sender builds messages
 * with, and the {@link io.adaps.protocol.MessageListener}s of the node's dispatch table.
 */
package io.adaps.protocol;
