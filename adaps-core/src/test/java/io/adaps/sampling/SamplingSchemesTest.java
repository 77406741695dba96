package io.adaps.sampling;

import org.junit.jupiter.api.Nested;

import io.adaps.api.SamplingScheme;

/** The sampling contract for every scheme. */
class SamplingSchemesTest {
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
