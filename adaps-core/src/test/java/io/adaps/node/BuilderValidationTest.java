package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.Initializers;
import io.adaps.api.TableSpec;
import io.adaps.api.UpdateRules;

/** Declarations are validated when made, with messages naming the value. */
class BuilderValidationTest {

    @Test
    void tableSpecs() {
        assertThatThrownBy(() -> TableSpec.of(null, 1, 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("name=null (expected a value)");
        assertThatThrownBy(() -> TableSpec.of("a b", 1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name='a b' (expected 1 to 64 characters from [A-Za-z0-9_.-])");
        assertThatThrownBy(() -> TableSpec.of("", 1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name='' (expected 1 to 64 characters from [A-Za-z0-9_.-])");
        assertThatThrownBy(() -> TableSpec.of("t", 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rows=0 (expected 1..2147483639) for table 't'");
        assertThatThrownBy(() -> TableSpec.of("t", -5, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rows=-5 (expected 1..2147483639) for table 't'");
        assertThatThrownBy(() -> TableSpec.of("t", TableSpec.MAX_ROWS + 1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rows=2147483640 (expected 1..2147483639) for table 't'");
        assertThatThrownBy(() -> TableSpec.of("t", 1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("valueLength=0 (expected 1..65536) for table 't'");
        assertThatThrownBy(() -> TableSpec.of("t", 1, 65537)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("valueLength=65537 (expected 1..65536) for table 't'");
        TableSpec spec = TableSpec.of("t", 1, 1);
        assertThatThrownBy(() -> spec.withInitializer(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("initializer=null (expected a value)");
        assertThatThrownBy(() -> spec.withUpdateRule(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("updateRule=null (expected a value)");
        assertThat(spec.updateRule()).isEqualTo(UpdateRules.add());
        assertThat(spec.initializer()).isEqualTo(Initializers.zeros());
    }

    @Test
    void ruleAndInitializerParameters() {
        assertThatThrownBy(() -> UpdateRules.sgd(0f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("learningRate=0.0 (expected a finite value > 0)");
        assertThatThrownBy(() -> UpdateRules.sgd(Float.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("learningRate=NaN (expected a finite value > 0)");
        assertThatThrownBy(() -> UpdateRules.adagrad(0.1f, Float.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("epsilon=Infinity (expected a finite value > 0)");
        assertThatThrownBy(() -> Initializers.uniform(1f, 0f, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("low=1.0, high=0.0 (expected low <= high)");
        assertThatThrownBy(() -> Initializers.uniform(Float.NaN, 0f, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("low=NaN (expected a finite value)");
        assertThatThrownBy(() -> Initializers.normal(0f, -1f, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stddev=-1.0 (expected a finite value >= 0)");
    }

    @Test
    void nodes() {
        AdaPS.Builder builder = AdaPS.builder();
        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessage("tables=0 (expected at least one table(...) before build())");
        builder.table(TableSpec.of("t", 3, 2));
        assertThatThrownBy(() -> builder.table(TableSpec.of("t", 5, 5))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("table='t' (expected a name not declared yet)");
        assertThatThrownBy(() -> builder.table(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("spec=null (expected a value)");
        // The refused declarations changed nothing: the node has exactly the one table.
        try (AdaPS node = builder.table(TableSpec.of("u", 4, 1)).build()) {
            assertThat(node.tables()).extracting(t -> t.name() + "@" + t.firstKey() + "+" + t.rows())
                    .containsExactly("t@0+3", "u@3+4");
            assertThat(node.keys()).isEqualTo(7);
            assertThat(node.table("u").key(2)).isEqualTo(5);
            assertThatThrownBy(() -> node.table("u").key(4)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("row=4 (expected 0..3 in table 'u')");
        }
    }

    @Test
    void techniquesThatSignalIntentAllowAtMost64Nodes() {
        java.util.List<String> peers = java.util.stream.IntStream.range(0, 65).mapToObj(i -> "h:" + (i + 1)).toList();
        AdaPS.Builder builder = AdaPS.builder().nodeId(0).peers(peers).table(TableSpec.of("t", 10, 1));
        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("technique=ADAPTIVE with 65 nodes (expected at most 64 nodes, or technique STATIC or "
                        + "FULL_REPLICATION)");
    }

    @Test
    void clusterSettingsAndEnvironment() {
        AdaPS.Builder builder = AdaPS.builder().table(TableSpec.of("t", 4, 1));
        assertThatThrownBy(() -> builder.fromEnvironment(java.util.Map.of("ADAPS_NODE_ID", "one")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_NODE_ID='one' (expected a node id 0, 1, ...)");
        assertThatThrownBy(() -> builder.fromEnvironment(java.util.Map.of("ADAPS_PEERS", "a:1,b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("address='b' (expected host:port)");
        assertThatThrownBy(() -> builder.peers(java.util.List.of("a:1", "a:1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("peers=[a:1, a:1] (expected distinct addresses; a:1 is listed twice)");
        assertThatThrownBy(() -> builder.fromEnvironment(java.util.Map.of("ADAPS_PEERS", "a:1,b:99999")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("address='b:99999' (expected a port in 1..65535)");
        assertThatThrownBy(() -> builder.fromEnvironment(java.util.Map.of("ADAPS_NODE_ID", "1", "ADAPS_TECHNIQUE", "FAST")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_TECHNIQUE='FAST' (expected one of [ADAPTIVE, RELOCATION_ONLY, REPLICATION_ONLY, STATIC, FULL_REPLICATION])");
        assertThatThrownBy(() -> AdaPS.builder().maxMessageBytes(65536)
                .table(TableSpec.of("wide", 2, 10_000).withUpdateRule(io.adaps.api.UpdateRules.adagrad(0.1f, 1e-6f)))
                .build()).isInstanceOf(IllegalStateException.class)
                .hasMessage("maxMessageBytes=65536 (expected at least 80040, the bytes that move one row of table 'wide')");
        assertThatThrownBy(() -> builder.technique(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("technique=null (expected a value)");
        assertThatThrownBy(() -> builder.failureTimeout(java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("failureTimeout=PT0S (expected > 0)");
        assertThatThrownBy(() -> builder.maxMessageBytes(10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxMessageBytes=10 (expected 65536..268435456)");
        // A refused environment changed nothing: still a cluster of one.
        try (AdaPS node = builder.build()) {
            assertThat(node.clusterSize()).isEqualTo(1);
        }
        // A node id that the peers do not have, and a cluster without a transport on the class path.
        builder.fromEnvironment(java.util.Map.of("ADAPS_NODE_ID", "2", "ADAPS_PEERS", "127.0.0.1:7001, 127.0.0.1:7002"));
        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessage("nodeId=2 (expected 0..1, an index into peers=[127.0.0.1:7001, 127.0.0.1:7002])");
        builder.nodeId(1);
        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("peers=[127.0.0.1:7001, 127.0.0.1:7002] (expected a transport for a cluster");
        assertThatThrownBy(() -> builder.heartbeatInterval(java.time.Duration.ofSeconds(2)).transport(
                        new io.adaps.api.transport.InJvmTransport(new io.adaps.api.transport.InJvmNetwork())).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("failureTimeout=PT3S (expected at least twice heartbeatInterval=PT2S)");
    }

    @Test
    void samplingSettingsAndEnvironment() {
        AdaPS.Builder builder = AdaPS.builder()
                .table(TableSpec.of("t", 40, 1).withSampling(new io.adaps.api.UniformKeys(0, 40)));
        assertThatThrownBy(() -> builder.fromEnvironment(java.util.Map.of("ADAPS_NODE_ID", "3", "ADAPS_SAMPLING", "FAST")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_SAMPLING='FAST' (expected one of [NAIVE, PRELOCALIZE, POOL, LOCAL])");
        assertThatThrownBy(() -> builder.fromEnvironment(java.util.Map.of("ADAPS_SAMPLING", "")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ADAPS_SAMPLING='' (expected one of [NAIVE, PRELOCALIZE, POOL, LOCAL])");
        assertThatThrownBy(() -> builder.sampling(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("scheme=null (expected a value)");
        assertThatThrownBy(() -> builder.samplePool(100, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samplePoolSize=100 (expected a power of two in 16..1048576)");
        assertThatThrownBy(() -> builder.samplePool(1 << 21, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samplePoolSize=2097152 (expected a power of two in 16..1048576)");
        assertThatThrownBy(() -> builder.samplePool(16, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("samplePoolReuse=0 (expected 1..1024)");
        assertThatThrownBy(() -> TableSpec.of("t", 10, 1).withSampling(new io.adaps.api.UniformKeys(0, 11)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("distribution.size()=11 (expected at most rows=10 of table 't')");
        assertThatThrownBy(() -> TableSpec.of("t", 10, 1).withSampling(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("distribution=null (expected a value)");
        // The refusals changed nothing: a node of its own with the default scheme.
        try (AdaPS node = builder.build()) {
            assertThat(node.nodeId()).isZero();
            assertThat(node.metrics().sampling().scheme()).isEqualTo(io.adaps.api.SamplingScheme.NAIVE);
        }
        // A valid scheme from the environment (trimmed), and a pool of 16 keys reused twice: 96
        // rows are three generations, so the pool drew two more after its first two.
        builder.fromEnvironment(java.util.Map.of("ADAPS_SAMPLING", " POOL ")).samplePool(16, 2);
        try (AdaPS node = builder.build()) {
            io.adaps.api.Worker worker = node.worker();
            for (int s = 0; s < 6; s++) {
                io.adaps.api.TableView t = worker.table("t");
                t.pullSample(t.prepareSample(16, 0, 1), new long[16], new float[16]);
            }
            io.adaps.api.SamplingMetrics sampling = node.metrics().sampling();
            assertThat(sampling.scheme()).isEqualTo(io.adaps.api.SamplingScheme.POOL);
            assertThat(sampling.poolRefills()).isEqualTo(4);
            assertThat(sampling.poolFallbackDraws()).isZero();
        }
    }
}
