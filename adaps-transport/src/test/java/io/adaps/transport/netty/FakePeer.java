package io.adaps.transport.netty;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

import io.adaps.api.transport.PeerAddress;
import io.adaps.api.transport.TransportConfig;
import io.adaps.testing.Await;

/**
 * A node impostor over a plain {@link Socket}: writes raw bytes or hand-made frames and reads what the
 * node answers, to test the node against peers that misbehave.
 */
final class FakePeer implements AutoCloseable {
    /** A frame as read from the node. */
    record ReadFrame(int version, int type, byte[] body) {
        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    FakePeer(PeerAddress node) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(node.host(), node.port()), 5_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /** Connects to {@code node}, retrying while it is not listening yet (up to 5 s). */
    static FakePeer connect(PeerAddress node) throws InterruptedException {
        return Await.until("a node listening at " + node, Duration.ofSeconds(5), () -> tryConnect(node),
                Objects::nonNull);
    }

    /** A peer connected to {@code node}, or null while nothing listens there. */
    private static FakePeer tryConnect(PeerAddress node) {
        try {
            return new FakePeer(node);
        } catch (ConnectException notListening) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** A frame of {@code type} with {@code body}, with an explicit protocol {@code version}. */
    void writeFrame(int version, int type, byte[] body) throws IOException {
        out.writeInt(Frame.MIN_LENGTH + body.length);
        out.writeByte(version);
        out.writeByte(type);
        out.write(body);
        out.flush();
    }

    /** A HANDSHAKE saying node {@code nodeId} of {@code clusterId} with {@code schema}, without a cluster secret. */
    void writeHello(int version, int nodeId, String clusterId, String schema) throws IOException {
        byte[] cluster = clusterId.getBytes(StandardCharsets.UTF_8);
        byte[] tables = schema.getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        DataOutputStream fields = new DataOutputStream(body);
        fields.writeInt(nodeId);
        fields.writeInt(cluster.length);
        fields.write(cluster);
        fields.writeInt(tables.length);
        fields.write(tables);
        fields.writeInt(0);
        writeFrame(version, Frame.HANDSHAKE, body.toByteArray());
    }

    /** A valid HANDSHAKE, then the node's answer, which must be HANDSHAKE_ACK. */
    void handshake(int nodeId, String clusterId, String schema) throws IOException {
        writeHello(TransportConfig.PROTOCOL_VERSION, nodeId, clusterId, schema);
        ReadFrame answer = readFrame();
        if (answer.type() != Frame.HANDSHAKE_ACK) {
            throw new IOException("handshake not acknowledged: " + Frame.typeName(answer.type()) + " " + answer.bodyText());
        }
    }

    void writeHeartbeat() throws IOException {
        writeFrame(TransportConfig.PROTOCOL_VERSION, Frame.HEARTBEAT, new byte[0]);
    }

    /** The next frame from the node (blocks up to the socket timeout). */
    ReadFrame readFrame() throws IOException {
        int length = in.readInt();
        int version = in.readUnsignedByte();
        int type = in.readUnsignedByte();
        byte[] body = new byte[length - Frame.MIN_LENGTH];
        in.readFully(body);
        return new ReadFrame(version, type, body);
    }

    /** Reads and drops frames until the node closes the connection; true if it did within the socket timeout. */
    boolean closedByNode() throws IOException {
        try {
            while (in.read() >= 0) {
                // skip whatever the node still sends
            }
            return true;
        } catch (EOFException | java.net.SocketException e) {
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
