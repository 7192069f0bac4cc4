package org.vectorjce.tool.volume;

import java.nio.file.Path;

import org.vectorjce.volumes.luks.KeySlotOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code volume change-key}: the key slot the existing secret opens now holds the new one (cryptsetup's luksChangeKey). */
@Command(name = "change-key", aliases = "luksChangeKey", sortOptions = false, description = {"The key slot the "
        + "existing passphrase opens gets the new one, as cryptsetup luksChangeKey (LUKS2 keeps the slot number, "
        + "LUKS1 moves it to the first free slot). The new secret as for add-key."})
final class ChangeKeyVerb extends KeyVerb {
    @Parameters(index = "1", arity = "0..1", paramLabel = "NEW_KEY_FILE", description = "The new secret's file.")
    Path newKeyFile;
    @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "Try only this key slot.")
    Integer keySlot;
    @Mixin
    KdfOptions kdf;

    ChangeKeyVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        kdf.check();
        KeySlotOptions o = kdf.options();
        return changeSlot(keySlot, newKeyFile, kdf, (v, np) -> {
            int old = v.keySlot().orElseThrow();
            int slot = v.changeKeySlot(old, np, o);
            return "Key slot " + old + (slot == old ? "" : " moved to key slot " + slot) + " changed.";
        });
    }
}
