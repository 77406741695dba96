package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.AliasTable;
import io.adaps.api.Consistency;
import io.adaps.api.Partitioning;
import io.adaps.api.TableSpec;
import io.adaps.api.UniformKeys;

/** The schema nodes compare in the handshake covers sampling distributions and consistency models. */
class SchemaTest {
    private static String schema(TableSpec spec) {
        try (AdaPS node = AdaPS.builder().table(spec).build()) {
            return Schema.describe(node.tables(), Partitioning.RANGE, 1);
        }
    }

    @Test
    void aSampledTableDiffersFromAnUnsampledOneAndByItsNumberOfKeys() {
        TableSpec plain = TableSpec.of("out", 100, 4);
        String unsampled = schema(plain);
        String uniform = schema(plain.withSampling(new UniformKeys(0, 100)));
        String smallerUniform = schema(plain.withSampling(new UniformKeys(0, 50)));
        String unigram = schema(plain.withSampling(AliasTable.unigram(LongStream.rangeClosed(1, 100).toArray(), 0.75)));

        assertThat(unsampled).doesNotContain("sampling");
        assertThat(uniform).contains(":sampling=UniformKeys/100").isNotEqualTo(smallerUniform);
        assertThat(unigram).contains(":sampling=AliasTable/").isNotEqualTo(uniform);
        assertThat(schema(plain.withSampling(new UniformKeys(0, 100)))).isEqualTo(uniform);
    }

    @Test
    void eachTablesResolvedModelIsAnItemOfItsOwn() {
        TableSpec plain = TableSpec.of("out", 100, 4);
        String asp = schema(plain);
        String ssp2 = schema(plain.withConsistency(Consistency.ssp(2)));
        String essp2 = schema(plain.withConsistency(Consistency.essp(2)));
        String bsp = schema(plain.withConsistency(Consistency.bsp()));

        assertThat(asp).contains(";consistency(out)=asp;");
        assertThat(ssp2).contains(";consistency(out)=ssp:2;").isNotEqualTo(essp2).isNotEqualTo(bsp).isNotEqualTo(asp);
        assertThat(essp2).contains(";consistency(out)=essp:2;");
        assertThat(bsp).contains(";consistency(out)=bsp;").isEqualTo(schema(plain.withConsistency(Consistency.ssp(0))));
        // The node's default resolves into the same item as the table's own choice.
        try (AdaPS node = AdaPS.builder().consistency(Consistency.ssp(2)).table(plain).build()) {
            assertThat(Schema.describe(node.tables(), Partitioning.RANGE, 1)).isEqualTo(ssp2);
        }
        // Only the handshake's schema: a checkpoint restores onto any model.
        try (AdaPS node = AdaPS.builder().table(plain.withConsistency(Consistency.ssp(2))).build()) {
            assertThat(Schema.describeTables(node.tables())).doesNotContain("consistency");
        }
    }
}
