package org.vectorjce.tool.volume;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.luks.LuksVolume;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code volume encrypt IN IMAGE}: the raw file {@code IN} into the payload of the LUKS volume in
 * {@code IMAGE} from its start, what {@code dd if=IN of=/dev/mapper/NAME} does after
 * {@code cryptsetup open}; {@code --threads} workers writing the volume's device at the offsets of
 * their 4 MiB chunks ({@link PayloadCopy}); a progress bar on stderr when it is a terminal. {@code IN}
 * larger than the payload is refused before anything is written. When {@code IN} ends inside a
 * sector, its bytes are written and the rest of that sector keeps its old plaintext; the payload
 * after {@code IN} is left as it was. The header is not touched. Nothing is synced to the storage
 * device beyond what closing the file does (as {@code dd} without {@code conv=fsync}).
 */
@Command(name = "encrypt", sortOptions = false, description = {"The raw file IN into the payload of the LUKS "
        + "volume IMAGE from its start, as dd to the device cryptsetup open makes: the header and the payload "
        + "after IN are not touched; IN larger than the payload is refused. The only verb that writes the "
        + "payload."})
final class EncryptVerb extends Verb {
    @Parameters(index = "0", paramLabel = "IN", description = "The plaintext to write (a regular file).")
    Path in;
    @Parameters(index = "1", paramLabel = "IMAGE", description = "The LUKS volume.")
    Path image;
    @Option(names = "--header", paramLabel = "FILE", description = "A detached header.")
    Path header;
    @Option(names = {"--key-file", "-d"}, paramLabel = "FILE", description = "The passphrase is this file's "
            + "bytes (-: all of standard input).")
    Path keyFile;
    @Option(names = {"--key-slot", "-S"}, paramLabel = "N", description = "Try only this key slot.")
    Integer keySlot;
    @Option(names = "--threads", paramLabel = "N", description = "Workers, 1 to 1024 (default: the processor "
            + "count).")
    Integer threads;

    EncryptVerb(Session session) {
        super(session);
    }

    @Override
    public Integer call() throws Exception {
        Checks.range(threads, "--threads", 1, 1024);
        if (!Files.exists(in)) {
            throw new NoSuchFileException(in.toString());
        }
        if (!Files.isRegularFile(in)) {
            throw new VolumeException("IN " + in + " is not a regular file (its size must be known before writing)");
        }
        Checks.image(image);
        if (Files.isSameFile(in, image) || header != null && Files.exists(header) && Files.isSameFile(in, header)) {
            throw new VolumeException("IN " + in + " is the volume itself: refusing to encrypt it into itself");
        }
        try (FileChannel src = FileChannel.open(in, StandardOpenOption.READ);
             LuksVolume v = LuksCommands.open(session, image, header, keyFile, keySlot, true)) {
            long size = src.size();
            if (size > v.payloadSize()) {
                throw new VolumeException("IN " + in + " is " + size + " bytes: larger than the " + v.payloadSize()
                        + "-byte payload of " + image + " (nothing written)");
            }
            PayloadCopy.run(session, v, size, threads == null ? Checks.processors() : threads, "volume-encrypt",
                    (plain, at, buf) -> {
                        long p = at;
                        while (buf.hasRemaining()) {
                            int r = src.read(buf, p);
                            if (r < 0) {
                                throw new IOException("IN " + in + " ended at byte " + p + " (it shrank while being read)");
                            }
                            p += r;
                        }
                        buf.flip();
                        plain.write(buf, at);
                    });
        }
        return Exits.OK;
    }
}
