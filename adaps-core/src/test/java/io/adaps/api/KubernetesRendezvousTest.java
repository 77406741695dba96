package io.adaps.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.adaps.api.transport.PeerAddress;

/**
 * The Kubernetes rendezvous with a fake resolver, clock and environment: ids and names from the
 * Indexed Job's variables, waiting until every pod's name resolves (bounded), refusals naming the
 * variable; and the builder taking a rendezvous's membership.
 */
class KubernetesRendezvousTest {
    private static final Map<String, String> ENVIRONMENT = Map.of("JOB_COMPLETION_INDEX", "2", "ADAPS_NODES", "3",
            "ADAPS_PEER_PATTERN", "mf-{index}.mf:7000");

    /** DNS whose names appear after a number of look-ups each, on a clock that sleeping advances. */
    private static final class FakeDns implements KubernetesRendezvous.HostResolver {
        final Map<String, Integer> failuresLeft = new HashMap<>();
        final List<String> lookUps = new ArrayList<>();
        final AtomicLong nanos = new AtomicLong();
        final List<Long> sleeps = new ArrayList<>();

        @Override
        public void resolve(String host) throws UnknownHostException {
            lookUps.add(host);
            int left = failuresLeft.getOrDefault(host, 0);
            if (left > 0) {
                failuresLeft.put(host, left - 1);
                throw new UnknownHostException(host + ": Name or service not known");
            }
        }

        void sleep(long millis) {
            sleeps.add(millis);
            nanos.addAndGet(millis * 1_000_000);
        }

        KubernetesRendezvous rendezvous(int index, int nodes, String pattern) {
            return KubernetesRendezvous.of(index, nodes, pattern, "0.0.0.0", this, nanos::get, this::sleep);
        }
    }

    @Test
    void idAndPeersComeFromTheIndexedJobsVariables() {
        KubernetesRendezvous rendezvous = KubernetesRendezvous.fromEnvironment(ENVIRONMENT);
        assertThat(rendezvous.peers()).containsExactly(new PeerAddress("mf-0.mf", 7000), new PeerAddress("mf-1.mf", 7000),
                new PeerAddress("mf-2.mf", 7000));
        assertThat(Rendezvous.fromEnvironment(with("ADAPS_RENDEZVOUS", "kubernetes"))).isInstanceOf(KubernetesRendezvous.class);
        assertThat(Rendezvous.fromEnvironment(with("ADAPS_RENDEZVOUS", "static"))).isNull();
        assertThat(Rendezvous.fromEnvironment(ENVIRONMENT)).isNull();
    }

    @Test
    void joinWaitsUntilEveryPodsNameResolves() {
        FakeDns dns = new FakeDns();
        dns.failuresLeft.put("mf-0.mf", 3);
        dns.failuresLeft.put("mf-1.mf", 1);
        Membership membership = dns.rendezvous(2, 3, "mf-{index}.mf:7000").join(Duration.ofSeconds(60));
        assertThat(membership.nodeId()).isEqualTo(2);
        assertThat(membership.peers()).extracting(PeerAddress::host).containsExactly("mf-0.mf", "mf-1.mf", "mf-2.mf");
        assertThat(membership.bindHost()).isEqualTo("0.0.0.0");
        assertThat(dns.sleeps).containsExactly(500L, 500L, 500L);
        assertThat(dns.lookUps).as("a name that resolved is not looked up again").containsExactly(
                "mf-0.mf", "mf-1.mf", "mf-2.mf", "mf-0.mf", "mf-1.mf", "mf-0.mf", "mf-0.mf");
    }

    @Test
    void joinGivesUpAtTheTimeoutNamingTheMissingPods() {
        FakeDns dns = new FakeDns();
        dns.failuresLeft.put("mf-1.mf", Integer.MAX_VALUE);
        KubernetesRendezvous rendezvous = dns.rendezvous(0, 2, "mf-{index}.mf:7000");
        assertThatThrownBy(() -> rendezvous.join(Duration.ofSeconds(2))).isInstanceOf(ClusterException.class)
                .hasMessage("node 0: Kubernetes rendezvous: [mf-1.mf] did not resolve within PT2S (expected a pod of the "
                        + "Indexed Job for each, named by a headless Service with publishNotReadyAddresses: true); "
                        + "last errors: {mf-1.mf=mf-1.mf: Name or service not known}");
        assertThat(dns.nanos.get()).isBetween(Duration.ofSeconds(2).toNanos(), Duration.ofMillis(2_501).toNanos());
    }

    @Test
    void badVariablesAreRefusedNamingThem() {
        assertThatThrownBy(() -> KubernetesRendezvous.fromEnvironment(Map.of("ADAPS_NODES", "3")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("JOB_COMPLETION_INDEX unset (expected it for the Kubernetes rendezvous)");
        assertThatThrownBy(() -> KubernetesRendezvous.fromEnvironment(with("ADAPS_NODES", "three")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("ADAPS_NODES='three' (expected an integer)");
        assertThatThrownBy(() -> KubernetesRendezvous.fromEnvironment(with("JOB_COMPLETION_INDEX", "3")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Kubernetes rendezvous (JOB_COMPLETION_INDEX, ADAPS_NODES, ADAPS_PEER_PATTERN, ADAPS_BIND_HOST): "
                        + "index=3 (expected 0..2)");
        assertThatThrownBy(() -> KubernetesRendezvous.fromEnvironment(with("ADAPS_PEER_PATTERN", "mf-0.mf:7000")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("peerPattern='mf-0.mf:7000' (expected host:port with {index}, e.g. mf-{index}.mf:7000)");
        assertThatThrownBy(() -> KubernetesRendezvous.fromEnvironment(with("ADAPS_PEER_PATTERN", "mf-{index}.mf")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("address='mf-0.mf' (expected host:port)");
        assertThatThrownBy(() -> Rendezvous.fromEnvironment(with("ADAPS_RENDEZVOUS", "consul")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_RENDEZVOUS='consul' (expected static or kubernetes)");
        AdaPS.Builder builder = AdaPS.builder().table(TableSpec.of("t", 4, 1));
        Map<String, String> broken = new HashMap<>(with("ADAPS_RENDEZVOUS", "kubernetes"));
        broken.remove("ADAPS_NODES");
        broken.put("ADAPS_NODE_ID", "0");
        broken.put("ADAPS_PEERS", "a:1,b:2");
        assertThatThrownBy(() -> builder.fromEnvironment(broken)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_NODES unset (expected it for the Kubernetes rendezvous)");
        assertThat(builder.settings().peers()).as("nothing changed").isEmpty();
    }

    @Test
    void theBuilderTakesTheMembershipOfItsRendezvous() {
        NodeSettings fixed = AdaPS.builder().table(TableSpec.of("t", 4, 1))
                .rendezvous(Rendezvous.fixed(1, List.of("a:1", "b:2"))).settings();
        assertThat(fixed.nodeId()).isEqualTo(1);
        assertThat(fixed.peers()).containsExactly(new PeerAddress("a", 1), new PeerAddress("b", 2));
        assertThat(fixed.bindHost()).isNull();
        // Literal addresses resolve without DNS.
        NodeSettings kubernetes = AdaPS.builder().table(TableSpec.of("t", 4, 1)).fromEnvironment(Map.of(
                "ADAPS_RENDEZVOUS", "kubernetes", "JOB_COMPLETION_INDEX", "1", "ADAPS_NODES", "2",
                "ADAPS_PEER_PATTERN", "127.0.0.1{index}:7000")).settings();
        assertThat(kubernetes.nodeId()).isEqualTo(1);
        assertThat(kubernetes.peers()).containsExactly(new PeerAddress("127.0.0.10", 7000),
                new PeerAddress("127.0.0.11", 7000));
        assertThat(kubernetes.bindHost()).isEqualTo("0.0.0.0");
        NodeSettings bound = AdaPS.builder().table(TableSpec.of("t", 4, 1)).bindHost("10.1.2.3")
                .rendezvous(KubernetesRendezvous.of(0, 1, "127.0.0.{index}:7000", "0.0.0.0")).settings();
        assertThat(bound.bindHost()).as("the builder's bind host wins").isEqualTo("10.1.2.3");
        assertThatThrownBy(() -> new Membership(0, List.of(new PeerAddress("a", 1), new PeerAddress("a", 1)), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("peers=[a:1, a:1] (expected distinct addresses)");
    }

    private static Map<String, String> with(String variable, String value) {
        Map<String, String> environment = new HashMap<>(ENVIRONMENT);
        environment.put(variable, value);
        return environment;
    }
}
