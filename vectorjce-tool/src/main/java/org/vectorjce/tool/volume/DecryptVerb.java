package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code volume decrypt}: the plaintext {@code cryptsetup open} would show, into the new file
 * {@code OUT} (an existing one is refused), on {@code --threads N} workers (default the processor
 * count; TrueCrypt's {@code --threads} are its header trials), a progress bar on a terminal; the
 * partial file is removed on failure.
 */
@Command(name = "decrypt", sortOptions = false, description = {"The plaintext cryptsetup open would show, into "
        + "the new file OUT (a progress bar on a terminal; the partial file is removed on failure)."})
final class DecryptVerb extends Verb {
    @Mixin
    UnlockOptions unlock;
    @Parameters(index = "0", paramLabel = "IMAGE", description = "The volume.")
    Path image;
    @Parameters(index = "1", paramLabel = "OUT", description = "The plaintext file to create (must not exist).")
    Path target;

    DecryptVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        Checks.range(unlock.threads, "--threads", 1, 1024);
        Checks.out(target);
        FormatCommands f = FormatCommands.of(session, unlock, image);
        try (Volume v = f.unlock("decrypt", image, false)) {
            return decrypt(v, f.decryptThreads(unlock.threads));
        }
    }

    /** The whole payload of {@code v} into {@link #target} on {@code threads} workers. */
    private int decrypt(Volume v, int threads) throws IOException, VolumeException {
        long size = v.payloadSize();
        boolean done = false;
        try (FileChannel o = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            PayloadCopy.run(session, v, size, threads, "volume-decrypt", (plain, at, buf) -> {
                while (buf.hasRemaining()) {
                    if (plain.read(buf, at + buf.position()) < 0) {
                        throw new IOException("The payload ended at byte " + (at + buf.position()));
                    }
                }
                buf.flip();
                long p = at;
                // One writer at a time: the kernel takes the file's lock for each write, and a
                // second writer spins on it; waiting here leaves the processor to the others.
                synchronized (o) {
                    while (buf.hasRemaining()) {
                        p += o.write(buf, p);
                    }
                }
            });
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(target);
            }
        }
        return Exits.OK;
    }
}
