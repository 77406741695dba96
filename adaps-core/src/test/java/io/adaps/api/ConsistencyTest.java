package io.adaps.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Consistency models: their bounds, names and how a node resolves them; bad input is refused naming the value. */
class ConsistencyTest {

    @Test
    void stalenessOutOfRangeIsRefused() {
        assertThatThrownBy(() -> Consistency.ssp(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("staleness=-1 (expected 0.." + Consistency.MAX_STALENESS + ")");
        assertThatThrownBy(() -> Consistency.essp(Consistency.MAX_STALENESS + 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("staleness=" + (Consistency.MAX_STALENESS + 1) + " (expected 0.." + Consistency.MAX_STALENESS + ")");
        assertThatThrownBy(() -> Consistency.essp(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("staleness=-1 ");
        assertThatThrownBy(() -> Consistency.ssp(Integer.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("staleness=" + Integer.MIN_VALUE + " ");
        assertThat(Consistency.ssp(Consistency.MAX_STALENESS).staleness()).isEqualTo(Consistency.MAX_STALENESS);
        assertThat(Consistency.essp(0).staleness()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ssp", "ssp:x", "ssp:-1", "foo", "essp:", ":3", "ssp:1048577", "asp:1", "ssp:3:4",
        "ssp:99999999999"})
    void parseRefusesWhatNamesNoModel(String text) {
        assertThatThrownBy(() -> Consistency.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("consistency='" + text + "' (expected ");
    }

    @Test
    void parseRefusesNull() {
        assertThatThrownBy(() -> Consistency.parse(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("consistency=null (expected asp, bsp, ssp:S or essp:S)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"asp", "bsp", "ssp:3", "essp:0", "essp:7", "ssp:1048576"})
    void parseReadsWhatToStringWrites(String text) {
        Consistency model = Consistency.parse(text);
        assertThat(model).hasToString(text);
        assertThat(Consistency.parse(model.toString())).isEqualTo(model).hasSameHashCodeAs(model);
    }

    @Test
    void namesAndEquality() {
        assertThat(Consistency.asp()).hasToString("asp").isEqualTo(Consistency.parse(" ASP "));
        assertThat(Consistency.asp().isBounded()).isFalse();
        assertThat(Consistency.asp().staleness()).isEqualTo(Consistency.UNBOUNDED);
        assertThat(Consistency.bsp()).hasToString("bsp").isEqualTo(Consistency.ssp(0)).isEqualTo(Consistency.parse("ssp:0"))
                .isNotEqualTo(Consistency.essp(0));
        assertThat(Consistency.ssp(3)).hasToString("ssp:3").isEqualTo(Consistency.parse("SSP:3"))
                .isNotEqualTo(Consistency.essp(3)).isNotEqualTo(Consistency.ssp(4));
        assertThat(Consistency.essp(0)).hasToString("essp:0");
        assertThat(Consistency.essp(7).isEager()).isTrue();
        assertThat(Consistency.ssp(7).isEager()).isFalse();
    }

    @Test
    void aTableSpecIsImmutable() {
        TableSpec spec = TableSpec.of("t", 4, 1);
        assertThat(spec.consistency()).isNull();
        TableSpec bounded = spec.withConsistency(Consistency.ssp(2));
        assertThat(bounded).isNotSameAs(spec);
        assertThat(bounded.consistency()).isEqualTo(Consistency.ssp(2));
        assertThat(spec.consistency()).as("the original").isNull();
        assertThat(bounded.withConsistency(Consistency.bsp()).consistency()).isEqualTo(Consistency.bsp());
        assertThat(bounded.consistency()).isEqualTo(Consistency.ssp(2));
        assertThatThrownBy(() -> spec.withConsistency(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("consistency=null (expected a value)");
        assertThatThrownBy(() -> AdaPS.builder().consistency(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("consistency=null (expected a value)");
    }

    @Test
    void aNodeResolvesEveryTablesModelAtTheStartAndKeepsIt() {
        TableSpec chosen = TableSpec.of("chosen", 4, 1).withConsistency(Consistency.bsp());
        AdaPS.Builder builder = AdaPS.builder().consistency(Consistency.ssp(3))
                .table(TableSpec.of("plain", 4, 1)).table(chosen);
        try (AdaPS node = builder.build()) {
            builder.consistency(Consistency.essp(9)); // too late for this node
            assertThat(node.table("plain").spec().consistency()).isEqualTo(Consistency.ssp(3));
            assertThat(node.table("chosen").spec().consistency()).isEqualTo(Consistency.bsp());
            assertThat(node.metrics().staleness("plain").consistency()).isEqualTo(Consistency.ssp(3));
            assertThat(node.metrics().staleness("chosen").consistency()).isEqualTo(Consistency.bsp());
        }
        try (AdaPS node = AdaPS.builder().table(TableSpec.of("t", 4, 1)).build()) {
            assertThat(node.table("t").spec().consistency()).as("the default").isEqualTo(Consistency.asp());
        }
    }

    @Test
    void theEnvironmentsModel() {
        AdaPS.Builder builder = AdaPS.builder().consistency(Consistency.ssp(2)).table(TableSpec.of("t", 4, 1));
        for (String bogus : new String[] {"bogus", "", "ssp:-1", "essp:x"}) {
            assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_CONSISTENCY", bogus)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("ADAPS_CONSISTENCY='" + bogus + "' (expected asp, bsp, ssp:S or essp:S with S in 0.."
                            + Consistency.MAX_STALENESS + ")");
        }
        // With another setting that is valid: nothing changed either.
        assertThatThrownBy(() -> builder.fromEnvironment(Map.of("ADAPS_CONSISTENCY", "bogus", "ADAPS_TECHNIQUE", "STATIC")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ADAPS_CONSISTENCY='bogus'");
        try (AdaPS node = builder.build()) {
            assertThat(node.table("t").spec().consistency()).as("after refused environments").isEqualTo(Consistency.ssp(2));
        }
        builder.fromEnvironment(Map.of("ADAPS_CONSISTENCY", "ESSP:5"));
        try (AdaPS node = builder.build()) {
            assertThat(node.table("t").spec().consistency()).isEqualTo(Consistency.essp(5));
        }
        builder.fromEnvironment(Map.of()); // absent: unchanged
        try (AdaPS node = builder.build()) {
            assertThat(node.table("t").spec().consistency()).isEqualTo(Consistency.essp(5));
        }
    }

    /**
     * Issue 13 (a run of the {@code mf} example on one node reported reads 16 clocks stale under
     * {@code essp:2}): a single node's pulls of several rows counted against a read tag that only
     * a cluster's calls (and single-row calls) reset, so they reflected clock 0 and were as stale
     * as the reader's clock. A single node's store holds every update made so far: no read is
     * stale.
     */
    @Test
    void issue13_aSingleNodesReadsAreNeverStale() {
        try (AdaPS node = AdaPS.builder().consistency(Consistency.essp(2)).table(TableSpec.of("t", 4, 2)).build();
             Worker worker = node.worker()) {
            long[] rows = {0, 1, 2, 3};
            float[] values = new float[8];
            for (int clock = 0; clock < 6; clock++) {
                worker.table("t").pull(rows, values);
                worker.pull(new long[] {node.table("t").firstKey()}, new float[2]);
                worker.advanceClock();
            }
            worker.table("t").pull(1, values, 0);
            StalenessMetrics staleness = node.metrics().staleness("t");
            assertThat(staleness.reads()).as("%s", staleness).isEqualTo(13);
            assertThat(staleness.maxStaleness()).as("%s", staleness).isZero();
        }
    }
}
