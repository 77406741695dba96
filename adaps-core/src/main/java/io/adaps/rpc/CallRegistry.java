package io.adaps.rpc;

import java.util.concurrent.atomic.AtomicReferenceArray;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.adaps.context.Peers;
import io.adaps.protocol.Message;

/**
 * Routes answers to the {@link Requester} whose request they answer: the worker id in the top 16
 * bits of the request id picks it, with one array read (no map, no allocation). Workers register
 * their requester when they first send, and unregister it when they close; an id may then be
 * reused by a later worker, whose tickets continue where the earlier one's ended, so a late answer
 * to the earlier worker is recognized as stale by its ticket. The adaptive manager answers to
 * {@link #MANAGER}.
 */
public final class CallRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(CallRegistry.class);
    /** The id the manager's requests carry; workers have lower ids. */
    public static final int MANAGER = 0xFFFF;

    private final Peers peers;
    private final AtomicReferenceArray<Requester> requesters = new AtomicReferenceArray<>(MANAGER + 1);

    public CallRegistry(Peers peers) {
        this.peers = peers;
    }

    /** From now on answers to {@code id} go to {@code requester}. */
    public void register(int id, Requester requester) {
        requesters.set(id, requester);
    }

    /** Answers to {@code id} are dropped from now on, unless another requester registers. */
    public void unregister(int id, Requester requester) {
        requesters.compareAndSet(id, requester, null);
    }

    /** Hands an answer (or the HANDOVER of a localize) to the requester whose request id it carries. */
    public void onAnswer(int peer, Message answer) {
        int id = (int) (answer.requestId() >>> 48);
        Requester requester = requesters.get(id);
        if (requester == null) {
            LOG.debug("node {}: dropped an answer from {} for worker {}, which is gone", peers.self(),
                    peers.describe(peer), id);
            return;
        }
        requester.onAnswer(peer, answer);
    }
}
