/**
 * The Netty implementation of the AdaPS transport SPI ({@link io.adaps.api.transport.Transport}):
 * {@link io.adaps.transport.netty.NettyTransport}, found through
 * {@link io.adaps.transport.netty.NettyTransportProvider} under the name {@code netty}.
 *
 * <p>Inside: the wire format ({@code Frame}, {@code MessagesFrameWriter}/{@code MessagesFrameReader},
 * {@code HandshakeCodec}, cut from the byte stream by {@code FrameDecoder}, whose {@code FrameCumulator}
 * gathers a frame that spans reads into one buffer of its size), the per-peer send queue
 * with batching and back-pressure ({@code Outbox}), and the connection life cycle: dialing
 * ({@code Dialer}), the handshake ({@code InboundConnection}, {@code OutboundConnection}), heartbeats
 * and failure detection ({@code Connection}), start-up and failure reporting ({@code Cluster}); link
 * security: TLS ({@code TlsContexts}) and the cluster-secret challenge-response
 * ({@code SecretHandshake}).
 */
package io.adaps.transport.netty;
