package org.vectorjce.tool.volume;

import java.nio.file.Path;
import java.util.Arrays;

import org.vectorjce.volumes.Volume;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code volume info}: the header as the format's cryptsetup dump prints it, or with
 * {@code --dump-volume-key} the volume key, after the one confirmation every format asks.
 */
@Command(name = "info", aliases = {"luksDump", "tcryptDump"}, sortOptions = false,
        description = {"The header, laid out as cryptsetup luksDump (LUKS), tcryptDump (--type tcrypt), bitlkDump (--type "
                + "bitlk) or fvault2Dump (--type fvault2) prints it. "
                + "Nothing is unlocked unless --dump-volume-key (--type tcrypt: the password opens the header "
                + "first)."})
final class InfoVerb extends Verb {
    @Mixin
    UnlockOptions unlock;
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
    Path image;
    @Option(names = {"--dump-volume-key", "--dump-master-key"}, description = "Unlock the volume and print its "
            + "key, as luksDump --dump-volume-key (asks YES on a terminal unless -q).")
    boolean dumpKey;
    @Option(names = {"-q", "--batch-mode"}, description = "Do not ask for confirmation.")
    boolean quiet;

    InfoVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        FormatCommands f = FormatCommands.of(session, unlock, image);
        f.checkInfo(image, dumpKey);
        if (!dumpKey) {
            f.printHeader(image);
            return Exits.OK;
        }
        if (!quiet) {
            session.confirmKeyDump();
        }
        try (Volume v = f.unlock("info", image, false)) {
            byte[] k = v.volumeKey();
            try {
                session.out.print(v.info().dumpWithKey(f.device(image), k)); // cryptsetup's text, line for line
            } finally {
                Arrays.fill(k, (byte) 0);
            }
        }
        return Exits.OK;
    }
}
