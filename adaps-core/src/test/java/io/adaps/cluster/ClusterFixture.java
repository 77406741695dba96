package io.adaps.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import io.adaps.api.AdaPS;
import io.adaps.api.transport.InJvmNetwork;
import io.adaps.api.transport.InJvmTransport;
import io.adaps.api.transport.Transport;
import io.adaps.util.Checks;

/**
 * The transport a test's clusters run on: how to make node i's transport and the addresses of n
 * nodes, and from these whole {@link TestCluster}s.
 *
 * <p>The contracts ({@link ClusterContract}, {@link RelocationContract}, {@link AdaptiveContract},
 * the sampling contract) are written once and run over every transport. A concrete test class
 * says which transport once, in a static field:
 * <pre>
 * &#64;RegisterExtension
 * static final ClusterFixture FIXTURE = ClusterFixture.inJvm();
 * </pre>
 * As an extension it is handed to every {@code ClusterFixture} parameter of the class's
 * methods and those of its {@code @Nested} classes, so a contract receives it in a
 * {@code @BeforeEach} and a nested class that runs another contract over the same transport
 * declares nothing.
 */
public final class ClusterFixture implements ParameterResolver {
    private static final AtomicInteger IN_JVM_PORTS = new AtomicInteger(1);

    private final IntFunction<Transport> transports;
    private final IntFunction<List<String>> addresses;

    /**
     * @param transports makes node i's transport
     * @param addresses  gives {@code n} free addresses ({@code host:port}) for a cluster of n nodes
     */
    public ClusterFixture(IntFunction<Transport> transports, IntFunction<List<String>> addresses) {
        this.transports = Checks.checkNotNull(transports, "transports");
        this.addresses = Checks.checkNotNull(addresses, "addresses");
    }

    /**
     * Nodes talking through an {@link InJvmNetwork} of this fixture's own. Its clusters share it
     * but never meet: no address is handed out twice.
     */
    public static ClusterFixture inJvm() {
        InJvmNetwork network = new InJvmNetwork();
        return new ClusterFixture(node -> new InJvmTransport(network), nodes -> {
            List<String> addresses = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                addresses.add("injvm:" + IN_JVM_PORTS.getAndIncrement());
            }
            return addresses;
        });
    }

    /** A new transport for node {@code node}. */
    public Transport transport(int node) {
        return transports.apply(node);
    }

    /** Addresses for a new cluster of {@code nodes} nodes. */
    public List<String> addresses(int nodes) {
        return addresses.apply(nodes);
    }

    /** A started cluster of {@code nodes} nodes; {@code configure} declares the tables and settings of each. */
    public TestCluster cluster(int nodes, UnaryOperator<AdaPS.Builder> configure) throws InterruptedException {
        return new TestCluster(nodes, addresses(nodes), this::transport, configure);
    }

    /** As above, with settings that may differ per node: {@code configure} gets each node's id. */
    public TestCluster cluster(int nodes, BiFunction<Integer, AdaPS.Builder, AdaPS.Builder> configure)
            throws InterruptedException {
        return new TestCluster(nodes, addresses(nodes), this::transport, configure);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ClusterFixture.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return this;
    }
}
