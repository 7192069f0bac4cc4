package org.vectorjce.tool.volume;

import org.vectorjce.volumes.luks.LuksVolume;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code volume remove-key}: removes the key slot the given secret opens (cryptsetup's
 * luksRemoveKey); the last key slot only with {@code -q} or a confirmation on a terminal, as
 * cryptsetup asks.
 */
@Command(name = "remove-key", aliases = "luksRemoveKey", sortOptions = false, description = {"Removes the key "
        + "slot the given passphrase opens, as cryptsetup luksRemoveKey; the last one only with -q or a YES on a "
        + "terminal."})
final class RemoveKeyVerb extends KeyVerb {
    @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "Try only this key slot.")
    Integer keySlot;
    @Option(names = {"-q", "--batch-mode"}, description = "Do not ask for confirmation (removing the last slot).")
    boolean quiet;

    RemoveKeyVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        try (LuksVolume v = openForKeys(keySlot)) {
            int slot = v.keySlot().orElseThrow();
            if (v.info().keySlots().size() == 1 && !quiet) {
                session.confirm("WARNING!\n========\nThis is the last keyslot. Device will become unusable"
                        + " after purging this key.\n\n", "Key slot " + slot + " is the last one: removing it leaves"
                        + " the volume unusable; confirm on a terminal, or -q");
            }
            v.removeKeySlot(slot);
            if (verbose) {
                session.out.println("Key slot " + slot + " removed.");
            }
        }
        return Exits.OK;
    }
}
