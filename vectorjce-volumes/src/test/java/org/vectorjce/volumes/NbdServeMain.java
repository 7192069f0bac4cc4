package org.vectorjce.volumes;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.vectorjce.volumes.nbd.VolumeServer;

/**
 * A server in a JVM of its own for the tests that need one (a small heap, a process to kill):
 * {@code NbdServeMain IMAGE SOCKET}, the passphrase on the first line of standard input. Serves the
 * volume read-write with the default limits, prints the URI, and stops when standard input ends.
 */
public final class NbdServeMain {
    private NbdServeMain() {
    }

    public static void main(String[] args) throws Exception {
        StringBuilder pw = new StringBuilder();
        for (int c; (c = System.in.read()) >= 0 && c != '\n'; ) {
            pw.append((char) c);
        }
        try (Volume v = Volumes.open(Path.of(args[0])).passphrase(pw.toString().getBytes(StandardCharsets.UTF_8))
                .readWrite().open();
                VolumeServer s = VolumeServer.builder(v).unixSocket(Path.of(args[1])).start()) {
            System.out.println(s.uri());
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the test closes our standard input
            }
        }
        System.out.println("stopped");
    }
}
