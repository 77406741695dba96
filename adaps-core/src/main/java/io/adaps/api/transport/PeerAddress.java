package io.adaps.api.transport;

import static io.adaps.util.Checks.checkNotNull;

/**
 * Where a node listens: a host name or address and a TCP port.
 *
 * @param host a host name or IP literal, not empty
 * @param port 1 to 65535
 */
public record PeerAddress(String host, int port) {
    /** Validates the components. */
    public PeerAddress {
        checkNotNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host='" + host + "' (expected a host name or address)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port=" + port + " (expected 1..65535)");
        }
    }

    /**
     * Parses {@code host:port} (IPv6 literals in brackets: {@code [::1]:7000}).
     *
     * @throws IllegalArgumentException naming the text when it is not of that form
     */
    public static PeerAddress parse(String text) {
        checkNotNull(text, "address");
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("address='" + text + "' (expected host:port)");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("address='" + text + "' (expected host:port with a numeric port)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("address='" + text + "' (expected a port in 1..65535)");
        }
        return new PeerAddress(host, port);
    }

    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
