package io.adaps.transport.netty;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import io.adaps.api.transport.TlsSettings;

/**
 * Certificate authorities and node certificates made at test time (EC P-256, SHA256withECDSA), so
 * that no key material is kept in the repository. Files go to a directory the test owns.
 */
final class TestCertificates {
    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());
    private static final char[] PASSWORD = "test-password".toCharArray();

    /** A CA: its key and self-signed certificate, written as {@code <name>-ca.pem}. */
    record Authority(String name, KeyPair keys, X509Certificate certificate, Path pem) {
    }

    private final Path directory;

    TestCertificates(Path directory) {
        this.directory = directory;
    }

    /** A new CA valid from an hour ago for a day. */
    Authority authority(String name) {
        KeyPair keys = keyPair();
        Instant now = Instant.now();
        X500Name subject = new X500Name("CN=" + name + " CA");
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
                    keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            X509Certificate certificate = sign(builder, keys.getPrivate());
            Path pem = directory.resolve(name + "-ca.pem");
            writePem(pem, certificate);
            return new Authority(name, keys, certificate, pem);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** PEM settings for node {@code name}: a certificate from {@code issuer} valid now, trusting {@code trusted}. */
    TlsSettings pem(String name, Authority issuer, Authority trusted) {
        return pem(name, issuer, trusted, Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofHours(12)));
    }

    /** PEM settings for node {@code name} with a certificate valid from {@code notBefore} to {@code notAfter}. */
    TlsSettings pem(String name, Authority issuer, Authority trusted, Instant notBefore, Instant notAfter) {
        KeyPair keys = keyPair();
        X509Certificate certificate = nodeCertificate(name, keys, issuer, notBefore, notAfter);
        Path chain = directory.resolve(name + "-chain.pem");
        Path key = directory.resolve(name + "-key.pem");
        writePem(chain, certificate, issuer.certificate());
        try (Writer out = Files.newBufferedWriter(key); JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(new JcaPKCS8Generator(keys.getPrivate(), null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return TlsSettings.pem(chain, key, trusted.pem());
    }

    /** Key store settings (PKCS#12) for node {@code name}: a certificate from {@code issuer}, trusting {@code trusted}. */
    TlsSettings keyStore(String name, Authority issuer, Authority trusted) {
        KeyPair keys = keyPair();
        X509Certificate certificate = nodeCertificate(name, keys, issuer, Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofHours(12)));
        try {
            KeyStore identity = KeyStore.getInstance("PKCS12");
            identity.load(null, null);
            identity.setKeyEntry("node", keys.getPrivate(), PASSWORD, new Certificate[] {certificate, issuer.certificate()});
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", trusted.certificate());
            Path identityFile = directory.resolve(name + "-identity.p12");
            Path trustFile = directory.resolve(name + "-trust.p12");
            try (OutputStream out = Files.newOutputStream(identityFile)) {
                identity.store(out, PASSWORD);
            }
            try (OutputStream out = Files.newOutputStream(trustFile)) {
                trust.store(out, PASSWORD);
            }
            return TlsSettings.keyStore(identityFile, PASSWORD, trustFile, PASSWORD);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate nodeCertificate(String name, KeyPair keys, Authority issuer, Instant notBefore,
                                                   Instant notAfter) {
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer.certificate(), serial(),
                    Date.from(notBefore), Date.from(notAfter), new X500Name("CN=" + name), keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            return sign(builder, issuer.keys().getPrivate());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey) {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void writePem(Path file, Object... objects) {
        try (Writer out = Files.newBufferedWriter(file); JcaPEMWriter pem = new JcaPEMWriter(out)) {
            for (Object object : objects) {
                pem.writeObject(object);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(256);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIALS.incrementAndGet());
    }
}
