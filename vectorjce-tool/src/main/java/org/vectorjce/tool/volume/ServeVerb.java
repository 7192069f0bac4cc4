package org.vectorjce.tool.volume;

import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code volume serve}: the command line of {@link ServeCommand}, which serves the volume over NBD. */
@Command(name = "serve", sortOptions = false, description = {"Serves the plaintext of IMAGE over NBD (the "
        + "Network Block Device protocol) until SIGINT or SIGTERM, for nbdinfo, nbdcopy, nbdfuse, qemu-img, "
        + "qemu-nbd's clients, fio or the Linux nbd driver: read-write for LUKS and TrueCrypt/VeraCrypt (unless "
        + "--read-only; TrueCrypt's pre-4.0 CBC volumes need it), read-only for BitLocker and FileVault 2 "
        + "(writes answered EPERM). It prints the URI to connect "
        + "to on standard output. The volume is unlocked as test unlocks it.",
        "", "On SIGINT or SIGTERM it finishes the requests in flight, flushes the image, closes the volume "
        + "(its key wiped), removes the socket and exits 0. A second serve of the same image is refused "
        + "while one serves it for writing (an advisory lock on IMAGE)."})
final class ServeVerb extends Verb {
    @Mixin
    UnlockOptions unlock;
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
    Path image;
    @Option(names = "--socket", paramLabel = "PATH", description = "Listen on this Unix socket (it must not "
            + "exist; made 0600). Default: $XDG_RUNTIME_DIR/volume-NAME.sock, or NAME.sock in a new 0700 "
            + "folder under the temporary directory; NAME is IMAGE's file name.")
    Path socket;
    @Option(names = "--tcp", paramLabel = "[HOST:]PORT", description = "Listen on TCP instead: on the loopback "
            + "address unless HOST names another (then a warning: the export is reachable from the network, "
            + "with no authentication).")
    String tcp;
    @Option(names = {"--read-only", "-r"}, description = "Refuse writes (EPERM) even where the format takes them.")
    boolean readOnly;
    @Option(names = "--export-name", paramLabel = "NAME", description = "The export's name (default: the "
            + "empty name, which a client naming none gets).")
    String exportName;
    @Mixin
    TlsOptions tls;
    @Option(names = "--foreground", description = "Serve in this process until SIGINT or SIGTERM: the "
            + "default and the only way (run it in the background with your shell's &, or under systemd).")
    boolean foreground;

    ServeVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        return new ServeCommand(session.out, session.err, session.signals).serve(image, socket, tcp, readOnly,
                exportName, tls.cert, tls.key, write -> FormatCommands.unlock(session, unlock, "serve", image, write));
    }
}
