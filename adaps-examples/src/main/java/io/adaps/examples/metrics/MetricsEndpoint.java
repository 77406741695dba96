package io.adaps.examples.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.adaps.api.AdaPS;
import io.micrometer.core.instrument.Clock;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * A node's metrics ({@link NodeMeterBinder}) served to Prometheus at
 * {@code http://<host>:<port>/metrics} (the JDK's HTTP server, one thread named
 * {@code adaps-metrics}) and registered as JMX MBeans under the domain {@code adaps}. What the
 * examples start with {@code --metrics-port}.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final String PATH = "/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry prometheus;
    private final JmxMeterRegistry jmx;
    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsEndpoint(PrometheusMeterRegistry prometheus, JmxMeterRegistry jmx, HttpServer server,
                            ExecutorService executor) {
        this.prometheus = prometheus;
        this.jmx = jmx;
        this.server = server;
        this.executor = executor;
    }

    /**
     * Publishes {@code node}'s meters and serves them at {@code port} on every interface (0: a free
     * port, see {@link #port()}).
     *
     * @throws IllegalArgumentException if {@code port} is not in 0..65535
     * @throws UncheckedIOException     if the port cannot be bound (nothing stays open)
     */
    public static MetricsEndpoint start(AdaPS node, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--metrics-port=" + port + " (expected 0..65535)");
        }
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JmxMeterRegistry jmx = new JmxMeterRegistry(JmxConfig.DEFAULT, Clock.SYSTEM);
        NodeMeterBinder binder = new NodeMeterBinder(node);
        binder.bindTo(prometheus);
        binder.bindTo(jmx);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(port), 0);
        } catch (IOException e) {
            prometheus.close();
            jmx.close();
            throw new UncheckedIOException("--metrics-port=" + port + " (expected a free port): " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "adaps-metrics");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext(PATH, exchange -> serve(exchange, prometheus));
        server.start();
        return new MetricsEndpoint(prometheus, jmx, server, executor);
    }

    private static void serve(HttpExchange exchange, PrometheusMeterRegistry prometheus) throws IOException {
        try (exchange) {
            byte[] body = prometheus.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The port served. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops serving (at once), unregisters the MBeans, closes the registries. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        prometheus.close();
        jmx.close();
    }
}
