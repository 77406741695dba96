package io.adaps.transport.netty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import io.adaps.api.transport.PeerAddress;

/** Free loopback addresses for test clusters, of this JVM or of node JVMs ({@code io.adaps.transport.jvm}). */
public final class Ports {
    private Ports() {
    }

    /** {@code count} distinct free ports on 127.0.0.1 (found by binding port 0, then released). */
    public static List<PeerAddress> loopback(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            List<PeerAddress> addresses = new ArrayList<>();
            for (ServerSocket socket : sockets) {
                addresses.add(new PeerAddress("127.0.0.1", socket.getLocalPort()));
            }
            return addresses;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the port is what we wanted
                }
            }
        }
    }
}
