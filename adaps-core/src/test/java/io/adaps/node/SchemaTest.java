package io.adaps.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import io.adaps.api.AdaPS;
import io.adaps.api.AliasTable;
import io.adaps.api.Partitioning;
import io.adaps.api.TableSpec;
import io.adaps.api.UniformKeys;

/** The schema nodes compare in the handshake covers sampling distributions. */
class SchemaTest {
    private static String schema(TableSpec spec) {
        try (AdaPS node = AdaPS.builder().table(spec).build()) {
            return Schema.describe(node.tables(), Partitioning.RANGE);
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
}
