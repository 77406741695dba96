package io.adaps.api;

import java.util.ServiceLoader;

/**
 * Starts nodes: the runtime behind {@link AdaPS.Builder#build()}. adaps-core provides it and
 * {@link AdaPS.Builder#build()} finds it with {@link ServiceLoader}, so that the API depends on no
 * part of the runtime. Applications neither implement nor call it.
 */
public interface NodeFactory {
    /**
     * Starts a node with {@code settings}: allocates and initializes the parameters it is home of
     * and, in a cluster, connects to every peer.
     *
     * @throws IllegalStateException if the settings cannot make a node (see {@link AdaPS.Builder#build()})
     * @throws ClusterException      if peers did not connect in time or refused the handshake
     */
    AdaPS start(NodeSettings settings);

    /**
     * The factory on the class path (or module path).
     *
     * @throws IllegalStateException if there is none
     */
    static NodeFactory load() {
        return ServiceLoader.load(NodeFactory.class, NodeFactory.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException("NodeFactory=none (expected adaps-core's runtime on the class "
                        + "path, with its META-INF/services entry)"));
    }
}
