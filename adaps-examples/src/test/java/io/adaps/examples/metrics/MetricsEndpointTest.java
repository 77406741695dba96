package io.adaps.examples.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.TableSpec;
import io.adaps.api.Worker;

/** The Prometheus scrape endpoint and the JMX MBeans of a node's metrics, and what closing leaves. */
class MetricsEndpointTest {
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void servesTheMetricsToPrometheusAndJmxUntilClosed() throws Exception {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("t", 10, 2)).build()) {
            try (Worker worker = node.worker()) {
                worker.pull(3, new float[2], 0);
            }
            int port;
            try (MetricsEndpoint endpoint = MetricsEndpoint.start(node, 0)) {
                port = endpoint.port();
                HttpResponse<String> scrape = scrape(port);
                assertThat(scrape.statusCode()).isEqualTo(200);
                assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(
                        type -> assertThat(type).startsWith("text/plain"));
                assertThat(scrape.body()).contains("adaps_local_pulls_total{node=\"0\"} 1.0")
                        .contains("adaps_local_fraction{node=\"0\"} 1.0").contains("adaps_workers_open{node=\"0\"} 0.0");
                assertThat(adapsMBeans()).as("JMX").isNotEmpty()
                        .anySatisfy(name -> assertThat(name.toString()).contains("adapsLocalPulls"));
            }
            assertThat(adapsMBeans()).as("JMX after close").isEmpty();
            int closedPort = port;
            assertThatThrownBy(() -> scrape(closedPort)).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void aTakenPortOrABadOneIsRefused() throws IOException {
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("t", 10, 2)).build();
             ServerSocket taken = new ServerSocket(0)) {
            assertThatThrownBy(() -> MetricsEndpoint.start(node, taken.getLocalPort()))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageStartingWith("--metrics-port=" + taken.getLocalPort() + " (expected a free port): ");
            assertThatThrownBy(() -> MetricsEndpoint.start(node, 65536)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--metrics-port=65536 (expected 0..65535)");
        }
    }

    private HttpResponse<String> scrape(int port) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static java.util.Set<ObjectName> adapsMBeans() throws MalformedObjectNameException {
        return ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("metrics:*"), null).stream()
                .filter(name -> name.toString().contains("adaps")).collect(java.util.stream.Collectors.toSet());
    }
}
