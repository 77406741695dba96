package io.adaps.examples.metrics;

import java.io.PrintWriter;

import io.adaps.api.AdaPS;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The examples' {@code --metrics-port} option (a picocli mixin). */
public final class MetricsOption {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    private Integer port;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve this node's metrics to Prometheus at http://HOST:PORT/metrics and as JMX MBeans "
                    + "(domain metrics); 0 picks a free port. Each node needs a port of its own: on one machine, use "
                    + "it with single nodes or give each node its own (default: not served).")
    void setPort(int port) {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--metrics-port=" + port + " (expected 0..65535)");
        }
        this.port = port;
    }

    /** Serves {@code node}'s metrics if the option was given (saying where on {@code out}), else null. */
    public MetricsEndpoint startFor(AdaPS node, PrintWriter out) {
        if (port == null) {
            return null;
        }
        MetricsEndpoint endpoint = MetricsEndpoint.start(node, port);
        out.printf("node %d: metrics at http://0.0.0.0:%d/metrics and in JMX%n", node.nodeId(), endpoint.port());
        out.flush();
        return endpoint;
    }
}
