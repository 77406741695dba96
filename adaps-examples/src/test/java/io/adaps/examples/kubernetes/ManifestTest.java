package io.adaps.examples.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import io.adaps.api.KubernetesRendezvous;
import io.adaps.api.transport.PeerAddress;

/**
 * The example's Kubernetes manifests parse as YAML and agree with what the Kubernetes rendezvous
 * reads: an Indexed Job whose pods are named by a headless Service that publishes not-ready
 * addresses, as many nodes as completions run at once, and a peer pattern that names those pods
 * at the port they listen at. The image definition runs the examples' jar.
 */
class ManifestTest {
    private static final Path MANIFEST = Path.of("kubernetes", "adaps-mf.yaml");

    @Test
    void theJobAndItsServiceGiveTheRendezvousWhatItNeeds() throws IOException {
        List<Map<String, Object>> documents = load(MANIFEST);
        assertThat(documents).extracting(d -> d.get("kind")).containsExactly("Service", "Job");
        Map<String, Object> service = documents.get(0);
        Map<String, Object> job = documents.get(1);
        String serviceName = (String) map(service, "metadata").get("name");
        String jobName = (String) map(job, "metadata").get("name");

        Map<String, Object> serviceSpec = map(service, "spec");
        assertThat(serviceSpec.get("clusterIP")).as("headless").isEqualTo("None");
        assertThat(serviceSpec.get("publishNotReadyAddresses")).isEqualTo(true);
        assertThat(map(serviceSpec, "selector")).containsEntry("job-name", jobName);

        Map<String, Object> jobSpec = map(job, "spec");
        assertThat(jobSpec.get("completionMode")).isEqualTo("Indexed");
        assertThat(jobSpec.get("parallelism")).as("all nodes at once").isEqualTo(jobSpec.get("completions"));
        Map<String, Object> podSpec = map(map(jobSpec, "template"), "spec");
        assertThat(podSpec.get("subdomain")).isEqualTo(serviceName);
        Map<String, Object> container = maps(podSpec, "containers").get(0);
        Map<String, String> env = new HashMap<>();
        for (Map<String, Object> variable : maps(container, "env")) {
            env.put((String) variable.get("name"), (String) variable.get("value"));
        }
        assertThat(env).containsEntry("ADAPS_RENDEZVOUS", "kubernetes")
                .containsEntry("ADAPS_NODES", String.valueOf(jobSpec.get("completions")));
        int adapsPort = port(maps(container, "ports"), "adaps", "containerPort");
        assertThat(port(maps(serviceSpec, "ports"), "adaps", "port")).isEqualTo(adapsPort);
        assertThat(env.get("ADAPS_PEER_PATTERN")).isEqualTo(jobName + "-{index}." + serviceName + ":" + adapsPort);
        int metricsPort = port(maps(container, "ports"), "metrics", "containerPort");
        assertThat(list(container, "args")).containsSubsequence("--metrics-port", String.valueOf(metricsPort));
        assertThat(map(map(container, "resources"), "requests")).containsKeys("cpu", "memory");

        // What the rendezvous makes of it, in pod 1 (Kubernetes sets JOB_COMPLETION_INDEX).
        env.put("JOB_COMPLETION_INDEX", "1");
        KubernetesRendezvous rendezvous = KubernetesRendezvous.fromEnvironment(env);
        assertThat(rendezvous.peers()).containsExactly(new PeerAddress("adaps-mf-0.adaps-mf", adapsPort),
                new PeerAddress("adaps-mf-1.adaps-mf", adapsPort));

        // The cluster secret file is the mounted Secret's key.
        Map<String, Object> mount = maps(container, "volumeMounts").get(0);
        Map<String, Object> secret = map(maps(podSpec, "volumes").get(0), "secret");
        String key = (String) ((List<?>) secret.get("items")).stream().map(item -> ((Map<?, ?>) item).get("path"))
                .findFirst().orElseThrow();
        assertThat(env.get("ADAPS_CLUSTER_SECRET_FILE")).isEqualTo(mount.get("mountPath") + "/" + key);
    }

    @Test
    void theImageRunsTheExamplesJar() throws IOException {
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertThat(dockerfile).contains("COPY --from=build /src/adaps-examples/target/adaps-examples-0.1.0-SNAPSHOT-all.jar")
                .contains("\"-jar\", \"/opt/adaps/adaps-examples.jar\"").contains("-Dsun.net.inetaddr.negative.ttl=1")
                .contains("\"-Dio.netty.jfr.enabled=false\"").contains("EXPOSE 7000 9404");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> load(Path file) throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file)) {
            for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
                documents.add((Map<String, Object>) document);
            }
        }
        return documents;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        return (Map<String, Object>) parent.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        return (List<Object>) parent.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Map<String, Object> parent, String key) {
        return (List<Map<String, Object>>) (List<?>) list(parent, key);
    }

    private static int port(List<Map<String, Object>> ports, String name, String field) {
        return ports.stream().filter(p -> name.equals(p.get("name"))).map(p -> (Integer) p.get(field)).findFirst()
                .orElseThrow(() -> new AssertionError("no port named " + name + " in " + ports));
    }
}
