package io.adaps.node;

/** The relocation protocol on a few hundred seeds: seconds. */
class RelocationProtocolTest extends RelocationProtocol {
    @Override
    long firstSeed() {
        return 0;
    }

    @Override
    int seeds() {
        return 200;
    }
}
