/**
 * The serving side of row requests and the moves of rows between nodes: the
 * {@link io.adaps.relocation.RequestServer} answers requests for rows owned here through the
 * {@link io.adaps.relocation.RowServer}, and the {@link io.adaps.relocation.Relocator} queues,
 * forwards and moves the others (with the home's {@link io.adaps.directory.Directory}).
 */
package io.adaps.relocation;
