package org.vectorjce.tool.volume;

import java.nio.file.Path;

import org.vectorjce.volumes.Volume;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code volume test}: whether the secrets open the volume, as {@code cryptsetup open --test-passphrase}. */
@Command(name = "test", sortOptions = false, description = {"Whether the passphrase (or key file) opens the "
        + "volume, as cryptsetup open --test-passphrase: exit 0 when it does, 2 when nothing opened."})
final class TestVerb extends Verb {
    @Mixin
    UnlockOptions unlock;
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
    Path image;
    @Option(names = {"-v", "--verbose"}, description = "Say which key slot opened (LUKS).")
    boolean verbose;

    TestVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        FormatCommands f = FormatCommands.of(session, unlock, image);
        try (Volume v = f.unlock("test", image, false)) {
            String line = verbose ? f.unlocked(v) : null;
            if (line != null) {
                session.out.println(line);
            }
        }
        return Exits.OK;
    }
}
