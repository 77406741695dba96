/**
 * Clocks and consistency: the workers' clocks, the cluster's watermark (the clock through which
 * every worker's updates have reached their owners) and what bounded-staleness reads wait for.
 */
package io.adaps.consistency;
