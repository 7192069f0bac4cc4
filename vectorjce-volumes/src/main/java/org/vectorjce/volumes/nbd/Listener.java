package org.vectorjce.volumes.nbd;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The server's bound socket and the URI a client connects to ({@code nbd+unix:}, {@code nbd:}, and
 * {@code nbds} with TLS, as the NBD project's {@code doc/uri.md} spells them).
 *
 * @param channel the bound, listening socket
 * @param uri how to connect, with the export name
 */
record Listener(ServerSocketChannel channel, String uri) {

    /**
     * Binds a Unix socket at {@code path} (which must not exist) that no other user can ever
     * connect to: the socket is made in a new 0700 folder beside {@code path}, set to 0600, then
     * hard-linked to {@code path} (which fails, replacing nothing, when {@code path} exists), and its
     * first name and the folder removed.
     */
    static Listener unix(Path path, boolean tls, String exportName) throws IOException {
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        Path abs = path.toAbsolutePath();
        try {
            Path dir = Files.createTempDirectory(abs.getParent(), ".vectorjce-nbd-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path first = dir.resolve("s");
            try {
                s.bind(UnixDomainSocketAddress.of(first));
                Files.setPosixFilePermissions(first, PosixFilePermissions.fromString("rw-------"));
                Files.createLink(abs, first);
            } finally {
                Files.deleteIfExists(first);
                Files.deleteIfExists(dir);
            }
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return new Listener(s, (tls ? "nbds+unix:///" : "nbd+unix:///") + exportName + "?socket=" + abs);
    }

    /** Binds a TCP socket of {@code address}'s own family (an IPv4 address stays IPv4; the default socket is IPv6). */
    static Listener tcp(InetSocketAddress address, boolean tls, String exportName) throws IOException {
        ServerSocketChannel s = ServerSocketChannel.open(address.getAddress() instanceof Inet4Address
                ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
        InetSocketAddress a;
        try {
            s.bind(address);
            a = (InetSocketAddress) s.getLocalAddress();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        String host = a.getAddress().getHostAddress();
        return new Listener(s, (tls ? "nbds://" : "nbd://") + (host.contains(":") ? "[" + host + "]" : host) + ":"
                + a.getPort() + "/" + exportName);
    }
}
