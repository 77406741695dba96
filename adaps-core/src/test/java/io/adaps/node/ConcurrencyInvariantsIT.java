package io.adaps.node;

/** The concurrency invariants at stress size: more threads than cores, long runs. */
class ConcurrencyInvariantsIT extends ConcurrencyInvariants {
    @Override
    int threads() {
        return 8;
    }

    @Override
    int operations() {
        return 500_000;
    }
}
