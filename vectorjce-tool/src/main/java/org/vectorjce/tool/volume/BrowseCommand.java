package org.vectorjce.tool.volume;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.nbd.TlsCredentials;
import org.vectorjce.webdav.FileServer;

/**
 * {@code volume browse}: the filesystem of a volume or disk image served read-only by
 * {@link FileServer} (WebDAV class 1, RFC 4918, and a web page of each folder) until SIGINT or
 * SIGTERM. The address goes alone on the first line of standard output, so that a script can take
 * it; what is served, and how to stop, on standard error.
 *
 * <p>Who may read: the random token in the address, or with {@code --password} HTTP Basic (RFC
 * 7617) as the user {@value #USER}, only over TLS (the NBD server's {@link TlsCredentials}), since
 * Basic sends the password readable by anyone on the path. The image holds a shared
 * {@link ImageLock} while served, so that no {@code serve} or {@code mount} writes it meanwhile.
 */
final class BrowseCommand {
    /** The user name a client sends with the {@code --password} password. */
    static final String USER = "volume";
    /** The longest password read from standard input, in bytes. */
    private static final int MAX_PASSWORD = 1024;

    private final Session session;

    BrowseCommand(Session session) {
        this.session = session;
    }

    @SuppressWarnings("try") // the lock is held, not read
    int browse(Path image, String listen, boolean password, Path tlsCert, Path tlsKey, Map<String, Object> env,
            DiskFiles.Opener opener) throws Exception {
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UsageException("--tls-cert and --tls-key go together");
        }
        if (password && tlsCert == null) {
            throw new UsageException("--password needs --tls-cert and --tls-key: HTTP Basic sends the password"
                    + " readable by anyone on the path");
        }
        InetSocketAddress address = listen == null ? null : ServeCommand.address("--listen", listen);
        // read before any secret is asked: a bad certificate is said first
        SSLContext tls = tlsCert == null ? null : TlsCredentials.fromPem(tlsCert, tlsKey);
        Checks.image(image);
        ImageLock.probe(image, false);
        try (DiskFiles.Opened o = opener.open();
             ImageLock lock = ImageLock.hold(image, false);
             FileSystem fs = DiskFiles.fileSystem(o, env)) {
            Map<String, String> facts = DiskFiles.facts(o, fs);
            FileServer.Builder b = FileServer.builder(fs.getPath("/")).title(image.getFileName().toString())
                    .facts(facts);
            if (address != null) {
                b.listen(address);
            }
            if (tls != null) {
                b.tls(tls);
            }
            if (password) {
                char[] p = password();
                try {
                    b.basicAuth(USER, p);
                } finally {
                    Arrays.fill(p, '\0');
                }
            }
            FileServer server;
            try {
                server = b.start();
            } catch (BindException e) {
                throw new VolumeException("Cannot listen on " + (listen == null ? "127.0.0.1" : listen) + ": "
                        + e.getMessage());
            }
            return serve(server, image, address, password, tls != null, facts);
        }
    }

    private int serve(FileServer server, Path image, InetSocketAddress address, boolean password, boolean tls,
            Map<String, String> facts) throws IOException {
        List<Object> restore = new ArrayList<>();
        boolean interrupted = false;
        try {
            if (session.signals) {
                Signals.onStop(() -> {
                    try {
                        server.close();
                    } catch (IOException e) {
                        // the listening socket's close failed: the server has stopped all the same
                    }
                }, restore);
            }
            session.out.println(server.uri());
            session.out.flush();
            if (address != null && !address.getAddress().isLoopbackAddress()) {
                session.err.println("WARNING: listening on " + ServeCommand.tcpText(new InetSocketAddress(
                        address.getAddress(), server.port())) + ": the files are reachable from the network by anyone"
                        + " who has " + (password ? "the password" : "the address") + (tls ? "." : ", unencrypted."));
            }
            session.err.println("Serving the files of " + image + " (" + DiskFiles.describe(facts) + ") read-only"
                    + (password ? " to the user " + USER + " with the password given" : "")
                    + ": open the address in a browser or a WebDAV client; Ctrl-C or SIGTERM stops.");
            session.err.flush();
            try {
                server.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        } finally {
            server.close();
            Signals.restore(restore);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return Exits.OK;
    }

    /** The {@code --password} password, as {@link Passphrase} reads a passphrase; the caller wipes it. */
    private char[] password() throws IOException, VolumeException, UsageException {
        byte[] b = Passphrase.read(session.stdin, session.console, MAX_PASSWORD,
                "Password for the user " + USER + " of the browser and WebDAV clients: ");
        CharBuffer c = null;
        try {
            if (b.length == 0) {
                throw new UsageException("--password: the password is empty");
            }
            c = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
            char[] p = new char[c.remaining()];
            c.get(p);
            return p;
        } catch (CharacterCodingException e) {
            throw new UsageException("--password: the password is not UTF-8 text");
        } finally {
            Arrays.fill(b, (byte) 0);
            if (c != null && c.hasArray()) {
                Arrays.fill(c.array(), '\0');
            }
        }
    }
}
