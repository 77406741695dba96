package io.adaps.sampling;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.adaps.api.SamplingScheme;
import io.adaps.cluster.ClusterFixture;

/** The sampling contract for every scheme, across nodes over the in-JVM transport. */
class SamplingSchemesTest {
    @RegisterExtension
    static final ClusterFixture FIXTURE = ClusterFixture.inJvm();

    @Nested
    class Naive extends SamplingContract {
        @Override
        SamplingScheme scheme() {
            return SamplingScheme.NAIVE;
        }
    }

    @Nested
    class Prelocalize extends SamplingContract {
        @Override
        SamplingScheme scheme() {
            return SamplingScheme.PRELOCALIZE;
        }
    }

    @Nested
    class Pool extends SamplingContract {
        @Override
        SamplingScheme scheme() {
            return SamplingScheme.POOL;
        }
    }

    @Nested
    class Local extends SamplingContract {
        @Override
        SamplingScheme scheme() {
            return SamplingScheme.LOCAL;
        }
    }
}
