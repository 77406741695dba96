/**
 * Where parameters are: the home node's {@link io.adaps.directory.Directory} of current owners,
 * and every node's {@link io.adaps.directory.LocationCache} of where it last found them.
 */
package io.adaps.directory;
