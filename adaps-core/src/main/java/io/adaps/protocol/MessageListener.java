package io.adaps.protocol;

/**
 * Receives one kind of decoded message: the handlers of the node's dispatch table, one per
 * {@link MessageType}.
 */
@FunctionalInterface
public interface MessageListener {
    /**
     * Handles {@code message} from node {@code peer} (this node itself for a message it sent
     * itself). The flyweight and its buffer are reused once this returns: copy what must be kept.
     */
    void onMessage(int peer, Message message);
}
