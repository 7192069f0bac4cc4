package org.vectorjce.tool.volume;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLContext;

import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.nbd.TlsCredentials;
import org.vectorjce.volumes.nbd.VolumeServer;

/**
 * {@code volume serve}: one volume's plaintext over NBD ({@link VolumeServer}) until SIGINT or
 * SIGTERM, on a Unix socket (default) or TCP.
 *
 * <p>The image is locked while it is served ({@link ImageLock}): exclusively when the export is
 * writable, shared when read-only.
 */
final class ServeCommand {
    /** Opens the volume, for writing where {@code write} and the format allow. */
    @FunctionalInterface
    interface Unlocker {
        Volume open(boolean write) throws Exception;
    }

    /** Where the server listens. */
    private record Listen(Path socket, Path ownFolder, InetSocketAddress tcp) {
    }

    private final PrintStream out, err;
    private final boolean signals;

    /**
     * {@code signals}: stop on SIGINT and SIGTERM (the process's handlers, replaced while serving
     * and restored after); without it the server stops only when its thread is interrupted.
     */
    ServeCommand(PrintStream out, PrintStream err, boolean signals) {
        this.out = out;
        this.err = err;
        this.signals = signals;
    }

    @SuppressWarnings("try") // the lock is held, not read
    int serve(Path image, Path socket, String tcp, boolean readOnly, String exportName, Path tlsCert, Path tlsKey,
            Unlocker unlocker) throws Exception {
        if (socket != null && tcp != null) {
            throw new UsageException("--socket and --tcp: give one place to listen");
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UsageException("--tls-cert and --tls-key go together");
        }
        // read before any secret is asked: a bad certificate is said first
        SSLContext tls = tlsCert == null ? null : TlsCredentials.fromPem(tlsCert, tlsKey);
        InetSocketAddress address = tcp == null ? null : tcpAddress(tcp);
        Checks.image(image);
        if (socket != null && Files.exists(socket, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(socket.toString());
        }
        ImageLock.probe(image, !readOnly);
        try (Volume v = unlocker.open(!readOnly);
             ImageLock lock = ImageLock.hold(image, !readOnly && !v.readOnly())) {
            Listen where = address != null ? new Listen(null, null, address) : socketFor(image, socket);
            try {
                return run(v, image, where, readOnly, exportName, tls);
            } finally {
                if (where.ownFolder() != null) {
                    Files.deleteIfExists(where.ownFolder());
                }
            }
        }
    }

    private int run(Volume v, Path image, Listen where, boolean readOnly, String exportName, SSLContext tls)
            throws Exception {
        VolumeServer.Builder b = VolumeServer.builder(v);
        if (where.tcp() != null) {
            b.tcp(where.tcp());
        } else {
            b.unixSocket(where.socket());
        }
        if (readOnly) {
            b.readOnly();
        }
        if (exportName != null) {
            b.exportName(exportName);
        }
        if (tls != null) {
            b.tls(tls);
        }
        VolumeServer server;
        try {
            server = b.start();
        } catch (BindException e) {
            throw new VolumeException("Cannot listen on " + (where.tcp() != null ? tcpText(where.tcp())
                    : where.socket()) + ": " + e.getMessage());
        }
        List<Object> restore = new ArrayList<>();
        try {
            if (signals) {
                Signals.onStop(() -> {
                    try {
                        server.close();
                    } catch (IOException e) {
                        // the accepting socket's close failed: the server has stopped all the same
                    }
                }, restore);
            }
            if (where.tcp() != null && !where.tcp().getAddress().isLoopbackAddress()) {
                err.println("WARNING: the export is reachable from the network at " + server.uri()
                        + (tls == null ? ", without authentication or encryption: anyone who can connect reads"
                        + (server.readOnly() ? "" : " and writes") + " the plaintext."
                        : ", over TLS but without client authentication: anyone who can connect reads"
                        + (server.readOnly() ? "" : " and writes") + " the plaintext."));
            }
            err.println("Serving " + image + " (" + v.info().format().typeName() + ", " + v.payloadSize() + " bytes, "
                    + (server.readOnly() ? "read-only" : "read-write") + "); SIGINT or SIGTERM stops.");
            err.flush();
            out.println(server.uri());
            out.flush();
            try {
                server.awaitStop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } finally {
            server.close();
            Signals.restore(restore);
        }
        v.flush();
        return Exits.OK;
    }

    /**
     * The Unix socket: {@code socket} as given, else {@code $XDG_RUNTIME_DIR/volume-NAME.sock}
     * (that folder is the user's own, 0700), else {@code NAME.sock} in a new 0700 folder under
     * the temporary directory, removed again on exit.
     */
    private static Listen socketFor(Path image, Path socket) throws IOException, VolumeException {
        if (socket != null) {
            return new Listen(socket, null, null);
        }
        String name = image.getFileName().toString();
        String xdg = System.getenv("XDG_RUNTIME_DIR");
        if (xdg != null && !xdg.isEmpty() && Files.isDirectory(Path.of(xdg)) && Files.isWritable(Path.of(xdg))) {
            Path s = Path.of(xdg, "volume-" + name + ".sock");
            if (Files.exists(s, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new VolumeException("The socket " + s + " exists: another volume serve of " + name
                        + " runs, or one was killed (remove the file); or give --socket PATH");
            }
            return new Listen(s, null, null);
        }
        Path dir = Files.createTempDirectory("volume-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        return new Listen(dir.resolve(name + ".sock"), dir, null);
    }

    /** {@code --tcp}'s {@link #address}. */
    static InetSocketAddress tcpAddress(String s) throws UsageException {
        return address("--tcp", s);
    }

    /**
     * The value {@code s} of {@code option}: {@code [HOST:]PORT} ({@code [v6]:PORT} for an IPv6
     * literal); no host: the loopback address.
     */
    static InetSocketAddress address(String option, String s) throws UsageException {
        String host = null;
        String port = s;
        int colon = s.lastIndexOf(':');
        if (colon >= 0) {
            host = s.substring(0, colon);
            port = s.substring(colon + 1);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (p < 0 || p > 65535) {
            throw new UsageException(option + " " + s + ": [HOST:]PORT with a port of 0 to 65535");
        }
        if (host == null || host.isEmpty()) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), p);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), p);
        } catch (UnknownHostException e) {
            throw new UsageException(option + " " + s + ": unknown host " + host);
        }
    }

    static String tcpText(InetSocketAddress a) {
        String h = a.getAddress().getHostAddress();
        return (h.contains(":") ? "[" + h + "]" : h) + ":" + a.getPort();
    }
}
