package org.vectorjce.tool.volume;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/**
 * The certificate and key of a verb that serves over TLS ({@code serve}: NBD with TLS 1.3;
 * {@code browse}: HTTPS), as {@code org.vectorjce.volumes.nbd.TlsCredentials#fromPem} reads them.
 * A picocli mixin; the verb checks that both or neither are given.
 */
final class TlsOptions {
    @Option(names = "--tls-cert", paramLabel = "FILE", description = "Serve over TLS with this X.509 "
            + "certificate chain (PEM, the server's first), as qemu-nbd's server-cert.pem; with --tls-key. serve "
            + "then requires TLS 1.3 of every client; browse serves https.")
    Path cert;
    @Option(names = "--tls-key", paramLabel = "FILE", description = "The certificate's private key: "
            + "unencrypted PKCS#8 PEM (BEGIN PRIVATE KEY), as qemu-nbd's server-key.pem.")
    Path key;
}
