/** Test helpers shared by the modules through the core test-jar. */
package io.adaps.testing;
