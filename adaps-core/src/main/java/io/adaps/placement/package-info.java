/**
 * Where parameters should be, decided from intent: the node's {@link io.adaps.placement.AdaptiveManager}
 * (a thread running the agents for intents, sampling pools, placements and replica
 * synchronization rounds) and, at each row's home, the {@link io.adaps.placement.HomePlacement}
 * decision that tells nodes to move or replicate rows.
 */
package io.adaps.placement;
