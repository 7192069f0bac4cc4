package org.vectorjce.volumes.nbd;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import org.vectorjce.volumes.VolumeException;

/**
 * A server's TLS 1.3 context from PEM files, as {@code openssl req -x509 -newkey ... -nodes} or
 * {@code certtool} write them (qemu-nbd's {@code server-cert.pem} and {@code server-key.pem}): the
 * certificate chain, server first, and an unencrypted PKCS#8 private key ({@code BEGIN PRIVATE KEY};
 * RSA, EC or Ed25519). No client certificate is asked for. The key bytes read are wiped after use.
 */
public final class TlsCredentials {
    private static final Pattern KEY = Pattern.compile(
            "-----BEGIN ([A-Z ]*)PRIVATE KEY-----\\s*([A-Za-z0-9+/=\\s]+?)-----END \\1PRIVATE KEY-----");
    /** The largest PEM file read: real ones are a few KiB. */
    private static final int MAX_PEM = 1 << 20;

    private TlsCredentials() {
    }

    /**
     * The context for {@link VolumeServer.Builder#tls}.
     *
     * @throws VolumeException when a file is not what it should be (the message names it)
     * @throws IOException when a file cannot be read
     */
    public static SSLContext fromPem(Path certificate, Path key) throws IOException, VolumeException {
        Certificate[] chain;
        try {
            Collection<? extends Certificate> cs = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(read(certificate)));
            chain = cs.toArray(Certificate[]::new);
        } catch (GeneralSecurityException e) {
            throw new VolumeException("The TLS certificate " + certificate + " is not an X.509 certificate in PEM: "
                    + e.getMessage());
        }
        if (chain.length == 0) {
            throw new VolumeException("The TLS certificate " + certificate + " holds no certificate");
        }
        byte[] pem = read(key);
        byte[] der = null;
        try {
            Matcher m = KEY.matcher(new String(pem, StandardCharsets.US_ASCII));
            if (!m.find()) {
                throw new VolumeException("The TLS key " + key + " holds no PEM private key");
            }
            if (!m.group(1).isEmpty()) {
                throw new VolumeException("The TLS key " + key + " is a " + m.group(1).trim() + " key: give it as"
                        + " unencrypted PKCS#8 (openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY8)");
            }
            der = Base64.getMimeDecoder().decode(m.group(2));
            PrivateKey k = privateKey(der, chain[0].getPublicKey().getAlgorithm(), key);
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            char[] none = new char[0];
            ks.setKeyEntry("server", k, none, chain);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, none);
            SSLContext c = SSLContext.getInstance("TLSv1.3");
            c.init(kmf.getKeyManagers(), null, null);
            return c;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new VolumeException("The TLS key " + key + " does not go with " + certificate + " or cannot be used: "
                    + e.getMessage());
        } finally {
            Arrays.fill(pem, (byte) 0);
            if (der != null) {
                Arrays.fill(der, (byte) 0);
            }
        }
    }

    private static PrivateKey privateKey(byte[] der, String algorithm, Path key)
            throws GeneralSecurityException, VolumeException {
        String a = algorithm.equals("EdDSA") ? "Ed25519" : algorithm;
        try {
            return KeyFactory.getInstance(a).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (java.security.spec.InvalidKeySpecException e) {
            throw new VolumeException("The TLS key " + key + " is not a " + a + " PKCS#8 key, as the certificate's");
        }
    }

    private static byte[] read(Path f) throws IOException, VolumeException {
        if (!Files.isRegularFile(f)) {
            throw new java.nio.file.NoSuchFileException(f.toString());
        }
        if (Files.size(f) > MAX_PEM) {
            throw new VolumeException(f + " is larger than " + MAX_PEM + " bytes: not a PEM file");
        }
        return Files.readAllBytes(f);
    }
}
