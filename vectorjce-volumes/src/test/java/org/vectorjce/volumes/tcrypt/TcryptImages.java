package org.vectorjce.volumes.tcrypt;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.tukaani.xz.XZInputStream;

/**
 * cryptsetup's {@code tests/tcrypt-images.tar.xz} (testvectors/tcrypt-images) and what
 * {@code tests/tcrypt-compat-test} knows about each image: its password, PIM, keyfiles, hints.
 */
public final class TcryptImages {
    public static final String PASSWORD = "aaaaaaaaaaaa", PASSWORD_HIDDEN = "bbbbbbbbbbbb",
            PASSWORD_72C = "aaaaaaaaaaaabbbbbbbbbbbbccccccccccccddddddddddddeeeeeeeeeeeeffffffffffff",
            PASSWORD_PIM = "cccccccccccccccccccc";
    static final int SERIAL_NORMAL = 0xDEADBABE, SERIAL_HIDDEN = 0xCAFEBABE;

    private TcryptImages() {
    }

    static Path tarball() {
        String p = System.getProperty("vectorjce.testvectors");
        Path dir = p != null ? Path.of(p) : Path.of("../testvectors");
        return dir.resolve("tcrypt-images").resolve("tcrypt-images.tar.xz");
    }

    private static Path shared;

    /**
     * The unpacked images, shared by this JVM's test classes: unpacked once into a temporary folder
     * that is removed at exit. Read them; write copies into a test's own folder.
     */
    public static synchronized Path shared() throws IOException {
        if (shared == null) {
            Path d = Files.createTempDirectory("vjce-tcrypt-images");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (var files = Files.walk(d)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                } catch (IOException ignored) {
                    // a temporary folder left behind
                }
            }));
            shared = unpack(d);
        }
        return shared;
    }

    /** A builder for the shared image {@code name} with the password {@code pw}. */
    public static TcryptVolume.Builder at(String name, String pw) throws IOException {
        return TcryptVolume.at(shared().resolve(name)).passphrase(pw.getBytes(StandardCharsets.UTF_8));
    }

    /** Unpacks the tarball into {@code dir}; returns the folder tcrypt-images. */
    static Path unpack(Path dir) throws IOException {
        try (InputStream in = new XZInputStream(Files.newInputStream(tarball()), 64 << 10)) {
            byte[] h = new byte[512];
            while (in.readNBytes(h, 0, 512) == 512 && h[0] != 0) {
                String name = cstring(h, 0, 100);
                long size = Long.parseLong(cstring(h, 124, 12).trim(), 8);
                long padded = (size + 511) / 512 * 512;
                if (h[156] == '0' || h[156] == 0) {
                    Path out = dir.resolve(name).normalize();
                    if (!out.startsWith(dir)) {
                        throw new IOException("tar entry outside the folder: " + name);
                    }
                    Files.createDirectories(out.getParent());
                    try (var o = Files.newOutputStream(out)) {
                        byte[] buf = new byte[1 << 16];
                        for (long left = size; left > 0; ) {
                            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
                            if (r < 0) {
                                throw new IOException("short tar");
                            }
                            o.write(buf, 0, r);
                            left -= r;
                        }
                    }
                    in.skipNBytes(padded - size);
                } else {
                    in.skipNBytes(padded);
                }
            }
        }
        return dir.resolve("tcrypt-images");
    }

    private static String cstring(byte[] b, int off, int len) {
        int end = off;
        while (end < off + len && b[end] != 0) {
            end++;
        }
        return new String(b, off, end - off, StandardCharsets.US_ASCII);
    }

    /** One image, read from its name as tcrypt-compat-test reads it. */
    public record Image(String name, String hash, String mode, List<String> ciphers, boolean hidden, boolean system,
            boolean keyfiles, int pim, String password) {

        public static Image of(String name) {
            String[] f = name.split("-");
            String hash = f[1];
            String mode = f[2];
            boolean hidden = name.endsWith("-hidden");
            List<String> ciphers = new ArrayList<>(Arrays.asList(f).subList(3, f.length - (hidden ? 1 : 0)));
            int pim = 0;
            String pw = PASSWORD;
            if (name.startsWith("vcpim_")) {
                pim = Integer.parseInt(f[0].substring("vcpim_1_".length()));
                pw = PASSWORD_PIM;
            }
            boolean kf = name.startsWith("tck_") || name.startsWith("vck_");
            if (name.startsWith("vck_1_nopw")) {
                pw = "";
            } else if (name.startsWith("vck_1_pw72")) {
                pw = PASSWORD_72C;
            }
            return new Image(name, hash, mode, List.copyOf(ciphers), hidden, name.startsWith("sys_"), kf, pim, pw);
        }

        /** The first cipher of the name: tcrypt-compat-test's {@code -c} hint. */
        public String cipherHint() {
            return ciphers.get(0);
        }

        /** Whether the library reads this image's payload: it must open, or the test fails. */
        boolean supported() {
            return Set.of("aes", "twofish", "serpent", "camellia", "kuznyechik", "blowfish", "cast5", "des3_ede")
                    .containsAll(ciphers);
        }

        /**
         * cryptsetup's name of the chain: most images list VeraCrypt's order (the reverse of the
         * encryption order, {@code aes-twofish} is cryptsetup's {@code twofish-aes}), the Camellia
         * and Kuznyechik cascades cryptsetup's own, which is the name when the reverse is no row.
         */
        String chainName() {
            List<String> c = ciphers.stream().map(x -> x.equals("blowfish") ? "blowfish_le" : x).toList();
            List<String> rev = new ArrayList<>(c);
            java.util.Collections.reverse(rev);
            String r = String.join("-", rev);
            boolean row = Chain.ROWS.stream().anyMatch(x -> x.name().equals(r) && x.mode().cryptsetupName.startsWith(mode));
            return row ? r : String.join("-", c);
        }

        /**
         * Whether cryptsetup's tarball wiped this image's payload to zeros ("some blocks were wiped
         * to compress it better", its README): the TrueCrypt 1-2 images whose chain the kernel
         * cannot map — the Blowfish ones and the CBC cascades — keep their headers only, so their
         * file system cannot be checked.
         */
        boolean payloadWiped() {
            return mode.equals("cbc") && (ciphers.size() > 1 || ciphers.contains("blowfish"));
        }

        /**
         * cryptsetup's mode: XTS, LRW, or for TrueCrypt before 4.0 CBC with whitening (one
         * cipher), each cipher its own CBC (the Blowfish cascades) or one CBC around the chain.
         */
        String modeName() {
            return switch (mode) {
                case "xts" -> "xts-plain64";
                case "lrw" -> "lrw-benbi";
                default -> ciphers.size() == 1 && !ciphers.contains("blowfish") ? "cbc-tcw"
                        : ciphers.contains("blowfish") ? "cbc-tcrypt" : "cbci-tcrypt";
            };
        }
    }

    /**
     * The FAT volume serial of the file system starting at {@code off} of {@code plain}, or null
     * when there is no FAT boot sector there (no 0x55AA signature, no extended boot signature).
     */
    static Integer fatSerial(SeekableByteChannel plain, long off) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(512);
        plain.position(off);
        while (b.hasRemaining() && plain.read(b) > 0) {
            // fill
        }
        byte[] s = b.array();
        if ((s[510] & 0xff) != 0x55 || (s[511] & 0xff) != 0xAA) {
            return null;
        }
        if (s[0x42] == 0x29 && new String(s, 0x52, 5, StandardCharsets.US_ASCII).equals("FAT32")) {
            return le32(s, 0x43);
        }
        if (s[0x26] == 0x29) {
            return le32(s, 0x27);
        }
        return null;
    }

    static int le32(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8 | (b[o + 2] & 0xff) << 16 | (b[o + 3] & 0xff) << 24;
    }
}
