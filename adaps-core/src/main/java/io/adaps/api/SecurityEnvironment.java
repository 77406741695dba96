package io.adaps.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import io.adaps.api.transport.ClusterSecret;
import io.adaps.api.transport.TlsSettings;

/**
 * Reads a node's link security from {@code ADAPS_TLS_*} and {@code ADAPS_CLUSTER_SECRET*}
 * variables (see {@link AdaPS.Builder#fromEnvironment()}). Each method returns null when none of
 * its variables is set and throws {@link IllegalArgumentException} naming the variable when they
 * are incomplete or contradict each other.
 */
final class SecurityEnvironment {
    static final String TLS_CERT = "ADAPS_TLS_CERT";
    static final String TLS_KEY = "ADAPS_TLS_KEY";
    static final String TLS_CA = "ADAPS_TLS_CA";
    static final String TLS_KEYSTORE = "ADAPS_TLS_KEYSTORE";
    static final String TLS_KEYSTORE_PASSWORD = "ADAPS_TLS_KEYSTORE_PASSWORD";
    static final String TLS_TRUSTSTORE = "ADAPS_TLS_TRUSTSTORE";
    static final String TLS_TRUSTSTORE_PASSWORD = "ADAPS_TLS_TRUSTSTORE_PASSWORD";
    static final String SECRET = "ADAPS_CLUSTER_SECRET";
    static final String SECRET_FILE = "ADAPS_CLUSTER_SECRET_FILE";

    private SecurityEnvironment() {
    }

    /** TLS from PEM files ({@code ADAPS_TLS_CERT}, {@code _KEY}, {@code _CA}) or key stores, or null. */
    static TlsSettings tls(Map<String, String> environment) {
        boolean pem = anySet(environment, TLS_CERT, TLS_KEY, TLS_CA);
        boolean stores = anySet(environment, TLS_KEYSTORE, TLS_KEYSTORE_PASSWORD, TLS_TRUSTSTORE, TLS_TRUSTSTORE_PASSWORD);
        if (pem && stores) {
            throw new IllegalArgumentException(TLS_CERT + "/" + TLS_KEY + "/" + TLS_CA + " and " + TLS_KEYSTORE
                    + "/" + TLS_TRUSTSTORE + " set (expected PEM files or key stores, not both)");
        }
        try {
            if (pem) {
                return TlsSettings.pem(path(environment, TLS_CERT), path(environment, TLS_KEY), path(environment, TLS_CA));
            }
            if (stores) {
                return TlsSettings.keyStore(path(environment, TLS_KEYSTORE),
                        required(environment, TLS_KEYSTORE_PASSWORD).toCharArray(), path(environment, TLS_TRUSTSTORE),
                        required(environment, TLS_TRUSTSTORE_PASSWORD).toCharArray());
            }
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("ADAPS_") ? e
                    : new IllegalArgumentException("ADAPS_TLS_*: " + e.getMessage(), e);
        }
        return null;
    }

    /**
     * The cluster secret from {@code ADAPS_CLUSTER_SECRET} (its UTF-8 bytes) or
     * {@code ADAPS_CLUSTER_SECRET_FILE} (the file's bytes without trailing line breaks, as a
     * mounted Kubernetes Secret has them), or null.
     */
    static ClusterSecret secret(Map<String, String> environment) {
        String text = environment.get(SECRET);
        String file = environment.get(SECRET_FILE);
        if (text != null && file != null) {
            throw new IllegalArgumentException(SECRET + " and " + SECRET_FILE + " set (expected one of them)");
        }
        try {
            if (text != null) {
                return ClusterSecret.ofText(text);
            }
            if (file != null) {
                return ClusterSecret.of(withoutTrailingLineBreaks(Files.readAllBytes(path(environment, SECRET_FILE))));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(SECRET_FILE + "='" + file + "' (expected a readable file: " + e + ")", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((text != null ? SECRET : SECRET_FILE) + ": " + e.getMessage(), e);
        }
        return null;
    }

    private static byte[] withoutTrailingLineBreaks(byte[] bytes) {
        int end = bytes.length;
        while (end > 0 && (bytes[end - 1] == '\n' || bytes[end - 1] == '\r')) {
            end--;
        }
        return Arrays.copyOf(bytes, end);
    }

    private static boolean anySet(Map<String, String> environment, String... variables) {
        for (String variable : variables) {
            if (environment.get(variable) != null) {
                return true;
            }
        }
        return false;
    }

    private static String required(Map<String, String> environment, String variable) {
        String value = environment.get(variable);
        if (value == null) {
            throw new IllegalArgumentException(variable + " unset (expected it with the other " + variable.substring(0,
                    variable.indexOf('_', "ADAPS_".length()) + 1) + "* variables)");
        }
        return value;
    }

    private static Path path(Map<String, String> environment, String variable) {
        String value = required(environment, variable).trim();
        if (value.isEmpty()) {
            throw new IllegalArgumentException(variable + "='' (expected a file)");
        }
        try {
            return Path.of(value);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(variable + "='" + value + "' (expected a file path)", e);
        }
    }
}
