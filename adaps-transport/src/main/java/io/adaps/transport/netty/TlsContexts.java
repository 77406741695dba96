package io.adaps.transport.netty;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

import io.adaps.api.ClusterException;
import io.adaps.api.transport.TlsSettings;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * A node's two TLS contexts, built once at start from its {@link TlsSettings} with the JDK's
 * provider: one for connections it accepts (its certificate; a client certificate required and
 * checked against the trusted CAs) and one for connections it dials (its certificate presented;
 * the server's checked against the trusted CAs, no host name check, see {@link TlsSettings}).
 * Validity dates are checked by the JDK's PKIX validation on both sides.
 *
 * <p>Accepted connections start with Netty's {@link OptionalSslHandler}, which installs the TLS
 * handler when the first bytes are a TLS record and otherwise steps aside, so that a peer without
 * TLS gets a plaintext HANDSHAKE_REFUSED saying that this node requires TLS instead of a silent
 * close ({@link InboundConnection}).
 */
final class TlsContexts {
    private final SslContext server;
    private final SslContext client;

    private TlsContexts(SslContext server, SslContext client) {
        this.server = server;
        this.client = client;
    }

    /**
     * The contexts of {@code settings}.
     *
     * @throws ClusterException naming the files, if they cannot be read or do not hold a key,
     *                          certificates or stores of the expected kind
     */
    static TlsContexts load(TlsSettings settings, String self) {
        try {
            SslContextBuilder server;
            SslContextBuilder client;
            if (settings.source() == TlsSettings.Source.PEM) {
                server = SslContextBuilder.forServer(settings.identity().toFile(), settings.privateKey().toFile())
                        .trustManager(settings.trust().toFile());
                client = SslContextBuilder.forClient()
                        .keyManager(settings.identity().toFile(), settings.privateKey().toFile())
                        .trustManager(settings.trust().toFile());
            } else {
                KeyManagerFactory keys = keyManagers(settings);
                TrustManagerFactory trust = trustManagers(settings);
                server = SslContextBuilder.forServer(keys).trustManager(trust);
                client = SslContextBuilder.forClient().keyManager(keys).trustManager(trust);
            }
            return new TlsContexts(
                    server.sslProvider(SslProvider.JDK).clientAuth(ClientAuth.REQUIRE).build(),
                    client.sslProvider(SslProvider.JDK).endpointIdentificationAlgorithm(null).build());
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new ClusterException(self + ": " + settings + " not usable: " + e.getMessage(), e);
        }
    }

    /** The first handler of an accepted connection: TLS if the peer speaks it, else nothing. */
    ChannelHandler acceptingHandler() {
        return new OptionalSslHandler(server);
    }

    /** The first handler of a dialed connection. */
    ChannelHandler dialingHandler(ByteBufAllocator allocator) {
        return client.newHandler(allocator);
    }

    private static KeyManagerFactory keyManagers(TlsSettings settings) throws IOException, GeneralSecurityException {
        char[] password = settings.identityPassword();
        try {
            KeyStore store = KeyStore.getInstance(settings.identity().toFile(), password);
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, password);
            return factory;
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    private static TrustManagerFactory trustManagers(TlsSettings settings) throws IOException, GeneralSecurityException {
        char[] password = settings.trustPassword();
        try {
            KeyStore store = KeyStore.getInstance(settings.trust().toFile(), password);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory;
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    /** The TLS failure in {@code cause}'s chain, or null if it is not one. */
    static SSLException tlsFailure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SSLException ssl) {
                return ssl;
            }
        }
        return null;
    }
}
