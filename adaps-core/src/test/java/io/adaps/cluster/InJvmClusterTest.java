package io.adaps.cluster;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The cluster guarantees over the in-JVM transport. */
class InJvmClusterTest extends ClusterContract {
    @RegisterExtension
    static final ClusterFixture FIXTURE = ClusterFixture.inJvm();

    /** The relocation guarantees over the same transport. */
    @Nested
    class Relocation extends RelocationContract {
    }

    /** The staleness bounds of every model over the same transport. */
    @Nested
    class Consistency extends ConsistencyContract {
    }

    /** The guarantees of every technique over the same transport. */
    @Nested
    class Adaptive extends AdaptiveContract {
    }
}
