/**
 * The node-local parameter store: per table a dense row-to-slot index and a slab of float values
 * with a sequence lock per slot (lock-free, never-torn reads; mutually exclusive writers).
 */
package io.adaps.store;
