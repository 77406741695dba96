/** Small helpers shared by all packages: argument checks and hashing. */
package io.adaps.util;
