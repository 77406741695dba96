/**
 * Runnable training applications on AdaPS. {@link io.adaps.examples.Examples} is the command line
 * entry point; each application is a subcommand in its own package.
 */
package io.adaps.examples;
