/**
 * Keys: the global key space of a node's tables ({@link io.adaps.keys.KeySpace}: a global key's
 * table) and the packed {@code (table, row)} form used inside the node ({@link io.adaps.keys.RowKey}).
 */
package io.adaps.keys;
