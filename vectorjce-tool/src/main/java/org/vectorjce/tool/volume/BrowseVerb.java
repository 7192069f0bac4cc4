package org.vectorjce.tool.volume;

import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code volume browse}: the command line of {@link BrowseCommand}, which serves a volume's files over WebDAV and HTTP. */
@Command(name = "browse", sortOptions = false, description = {"Serves the files of IMAGE's filesystem read-only "
        + "over HTTP until SIGINT (Ctrl-C) or SIGTERM: a web page of each folder for a browser, and WebDAV for "
        + "file managers (Finder, Windows Explorer, GNOME Files, Dolphin), rclone and cadaver. It prints the "
        + "address to open on standard output: http://127.0.0.1:PORT/TOKEN/, whose random TOKEN is the secret "
        + "that lets a client read. IMAGE is a volume (unlocked as test unlocks it) or a plain disk image.",
        "", "On SIGINT or SIGTERM it finishes the requests in flight (30 s at most), closes the volume and exits 0."})
final class BrowseVerb extends FilesVerbs.FilesVerb {
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume or disk image.")
    Path image;
    @Option(names = "--listen", paramLabel = "HOST:PORT", description = "Listen here (default 127.0.0.1 and a "
            + "free port; no HOST: 127.0.0.1). Another address than loopback makes the files reachable from that "
            + "network, and the command says so.")
    String listen;
    @Option(names = "--password", description = "Ask for a password (on the terminal, else the next line of "
            + "standard input, after the volume's passphrase) and require it with the user name volume (HTTP "
            + "Basic) instead of the token in the address; needs --tls-cert and --tls-key.")
    boolean password;
    @Mixin
    TlsOptions tls;

    BrowseVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        return new BrowseCommand(session).browse(image, listen, password, tls.cert, tls.key, env(),
                () -> open("browse", image));
    }
}
