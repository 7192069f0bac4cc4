package org.vectorjce.tool.volume;

import java.nio.file.Path;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.KeySlotOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code volume add-key}: a new key slot with the new secret, opened with an existing one (cryptsetup's luksAddKey). */
@Command(name = "add-key", aliases = "luksAddKey", sortOptions = false, description = {"A new key slot for a new "
        + "passphrase, opened with an existing one, as cryptsetup luksAddKey. The new secret is NEW_KEY_FILE's "
        + "bytes, else the next line of standard input, else a prompt asked twice."})
final class AddKeyVerb extends KeyVerb {
    @Parameters(index = "1", arity = "0..1", paramLabel = "NEW_KEY_FILE", description = "The new secret's file.")
    Path newKeyFile;
    @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "The new slot's number (default the "
            + "first free: LUKS1 0..7, LUKS2 0..31).")
    Integer keySlot;
    @Mixin
    KdfOptions kdf;

    AddKeyVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        kdf.check();
        KeySlotOptions o = kdf.options();
        if (keySlot != null) {
            if (keySlot < 0) {
                throw new VolumeException("Key slot " + keySlot + " is out of range (0 or more)");
            }
            o.keySlot(keySlot);
        }
        return changeSlot(null, newKeyFile, kdf, (v, np) -> "Key slot " + v.addKeySlot(np, o) + " created.");
    }
}
