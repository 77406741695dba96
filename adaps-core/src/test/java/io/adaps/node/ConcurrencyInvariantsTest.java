package io.adaps.node;

/** The concurrency invariants at unit-test size. */
class ConcurrencyInvariantsTest extends ConcurrencyInvariants {
    @Override
    int threads() {
        return 4;
    }

    @Override
    int operations() {
        return 20_000;
    }
}
