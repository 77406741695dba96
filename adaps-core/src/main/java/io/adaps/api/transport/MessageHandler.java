package io.adaps.api.transport;

import org.agrona.DirectBuffer;

import io.adaps.api.PeerFailedException;

/** Receives what a {@link Transport} delivers. Implemented by the node. */
public interface MessageHandler {
    /**
     * One message from {@code peer}, as it was passed to {@link Transport#send} there. Called on a
     * transport thread; messages from one peer arrive one at a time, in the order they were sent.
     * The bytes are valid only during the call. Must not block.
     */
    void onMessage(int peer, DirectBuffer buffer, int offset, int length);

    /**
     * {@code peer} is gone: its connection broke or it sent nothing for the failure timeout. Called
     * at most once per peer, on a transport thread; must not block.
     */
    void onPeerFailure(PeerFailedException failure);
}
