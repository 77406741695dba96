/**
 * Intent signaling (Renz-Wieland, Kieslinger, Gericke, Gemulla, Kaoudi, Markl, "Good Intentions:
 * Adaptive Parameter Servers via Intent Signaling", the AdaPM system): a worker declares which keys
 * it will access during which of its clocks, and the node's adaptive manager acts on those intents
 * shortly before they start.
 *
 * <p>A worker thread offers its intents to its own {@link io.adaps.intent.IntentQueue}; the manager
 * thread drains every queue into the node's {@link io.adaps.intent.IntentTracker}, and on each round
 * advances the tracker by the workers' clocks and the {@link io.adaps.intent.ActionWindow}'s current
 * estimate of how many clocks ahead it must act. Keys are {@code table << 32 | row}.
 */
package io.adaps.intent;
