package io.adaps.api.transport;

/**
 * Creates transports; found with {@link java.util.ServiceLoader}, so that a node built from
 * {@code adaps-core} uses the network transport of {@code adaps-transport} when that module is on
 * the class path.
 */
public interface TransportProvider {
    /** A short name, e.g. {@code netty}. */
    String name();

    /** A new, unstarted transport. */
    Transport create();
}
