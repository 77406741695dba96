/**
 * The node-local parameter store: per table a dense row-to-slot index and a slab of float values
 * with a sequence lock per slot (lock-free, never-torn reads; mutually exclusive writers). Rows are
 * held owned (the authoritative copy) or as replicas of rows owned elsewhere, which keep the
 * updates pushed to them as a delta for the owner ({@code ReplicaSlots}).
 */
package io.adaps.store;
