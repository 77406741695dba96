package io.adaps.node;

/** The relocation protocol on thousands of seeds other than the unit test's: a minute or two. */
class RelocationProtocolIT extends RelocationProtocol {
    @Override
    long firstSeed() {
        return 1_000_000;
    }

    @Override
    int seeds() {
        return 2_000;
    }
}
