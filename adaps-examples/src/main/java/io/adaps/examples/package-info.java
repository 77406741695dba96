/**
 * Runnable training applications on AdaPS. {@link io.adaps.examples.Examples} is the command line
 * entry point; each application is a subcommand in its own package, and so is the local cluster
 * launcher ({@link io.adaps.examples.launch}).
 */
package io.adaps.examples;
