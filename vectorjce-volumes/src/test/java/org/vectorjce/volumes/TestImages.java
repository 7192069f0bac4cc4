package org.vectorjce.volumes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.vectorjce.volumes.luks.KeySlotOptions;
import java.util.HexFormat;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.ByteBuffer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.tukaani.xz.XZInputStream;

/** Test helpers: cryptsetup's images from testvectors/, external tools, a FAT check, LUKS2 editing. */
public final class TestImages {
    private TestImages() {
    }

    public static Path folder() {
        String p = System.getProperty("vectorjce.testvectors");
        Path dir = p != null ? Path.of(p) : Path.of("../testvectors");
        return dir.resolve("cryptsetup-images");
    }

    /** {@code name}.xz from testvectors/cryptsetup-images, unpacked into {@code dir}. */
    public static Path unxz(String name, Path dir) throws IOException {
        Path out = dir.resolve(name.replaceAll("\\.xz$", "").replaceAll("^(evil_hdr-.*)$", "$1.img"));
        try (InputStream in = new XZInputStream(Files.newInputStream(folder().resolve(name)))) {
            Files.copy(in, out);
        }
        return out;
    }

    /** A .tar.xz from testvectors/cryptsetup-images unpacked into {@code dir} (ustar, regular files only). */
    public static List<Path> untarXz(String name, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (InputStream in = new XZInputStream(Files.newInputStream(folder().resolve(name)))) {
            byte[] h = new byte[512];
            while (in.readNBytes(h, 0, 512) == 512) {
                if (h[0] == 0) {
                    break;
                }
                String n = cstring(h, 0, 100);
                String prefix = cstring(h, 345, 155);
                if (!prefix.isEmpty()) {
                    n = prefix + "/" + n;
                }
                long size = Long.parseLong(cstring(h, 124, 12).trim(), 8);
                byte type = h[156];
                long padded = (size + 511) / 512 * 512;
                if (type == '0' || type == 0) {
                    Path out = dir.resolve(n).normalize();
                    assertTrue(out.startsWith(dir), n);
                    Files.createDirectories(out.getParent());
                    try (var o = Files.newOutputStream(out)) {
                        long left = size;
                        byte[] buf = new byte[1 << 16];
                        while (left > 0) {
                            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
                            if (r < 0) {
                                throw new IOException("short tar");
                            }
                            o.write(buf, 0, r);
                            left -= r;
                        }
                    }
                    in.skipNBytes(padded - size);
                    files.add(out);
                } else {
                    in.skipNBytes(padded);
                }
            }
        }
        return files;
    }

    private static String cstring(byte[] b, int off, int len) {
        int end = off;
        while (end < off + len && b[end] != 0) {
            end++;
        }
        return new String(b, off, end - off, StandardCharsets.US_ASCII);
    }

    /** Whether the program {@code name} is on the PATH. */
    public static boolean have(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        for (String d : List.of("/usr/sbin", "/sbin", "/usr/bin")) {
            if (Files.isExecutable(Path.of(d, name))) {
                return true;
            }
        }
        return false;
    }

    public static void assumeTool(String name) {
        assumeTrue(have(name), name + " is not installed: test skipped");
    }

    /** The result of a program run. */
    public record Run(int rc, String out, String err) {
    }

    /** Runs {@code cmd} with {@code stdin}; fails the test on a time-out. */
    public static Run run(byte[] stdin, String... cmd) throws IOException, InterruptedException {
        List<String> c = new ArrayList<>(Arrays.asList(cmd));
        if (!c.get(0).contains("/")) {
            for (String d : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
                if (Files.isExecutable(Path.of(d, c.get(0)))) {
                    c.set(0, d + "/" + c.get(0));
                    break;
                }
            }
        }
        ProcessBuilder pb = new ProcessBuilder(c);
        pb.environment().put("LANG", "C");
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        try (var o = p.getOutputStream()) {
            if (stdin != null) {
                o.write(stdin);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Thread t1 = new Thread(() -> copy(p.getInputStream(), out));
        Thread t2 = new Thread(() -> copy(p.getErrorStream(), err));
        t1.start();
        t2.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + c);
        }
        t1.join();
        t2.join();
        return new Run(p.exitValue(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try {
            in.transferTo(out);
        } catch (IOException e) {
            // the process went away
        }
    }

    /** Runs {@code cmd} and asserts exit status 0. */
    public static Run ok(byte[] stdin, String... cmd) throws IOException, InterruptedException {
        Run r = run(stdin, cmd);
        assertEquals(0, r.rc(), () -> String.join(" ", cmd) + ": " + r.err() + r.out());
        return r;
    }

    /**
     * The FAT volume serial of a boot sector, after checking it is one: the 0x55AA signature, a
     * sane bytes-per-sector, and the extended boot signature 0x29 at 0x26 (FAT12/16, serial at 0x27)
     * or 0x42 (FAT32, serial at 0x43). Returns e.g. {@code DEAD-BABE}.
     */
    public static String fatSerial(byte[] boot) {
        assertEquals(0x55, boot[510] & 0xff, "boot sector signature");
        assertEquals(0xAA, boot[511] & 0xff, "boot sector signature");
        int bps = (boot[11] & 0xff) | (boot[12] & 0xff) << 8;
        assertTrue(bps == 512 || bps == 1024 || bps == 2048 || bps == 4096, "bytes per sector " + bps);
        int off;
        int rootEntries = (boot[17] & 0xff) | (boot[18] & 0xff) << 8;
        if (rootEntries == 0 && (boot[0x42] & 0xff) == 0x29) {
            off = 0x43; // FAT32
        } else {
            assertEquals(0x29, boot[0x26] & 0xff, "extended boot signature");
            off = 0x27;
        }
        return String.format("%02X%02X-%02X%02X", boot[off + 3] & 0xff, boot[off + 2] & 0xff, boot[off + 1] & 0xff,
                boot[off] & 0xff);
    }

    /**
     * Rewrites the JSON of both LUKS2 header copies in {@code image} with {@code json} (zero-padded;
     * it must fit) and recomputes their SHA-256 checksums, as a forged-but-consistent header.
     */
    public static void rewriteLuks2Json(Path image, String json) throws Exception {
        byte[] img = Files.readAllBytes(image);
        rewriteLuks2Json(img, json);
        Files.write(image, img);
    }

    /** {@link #rewriteLuks2Json(Path, String)} on an image's bytes (at least both header copies). */
    public static void rewriteLuks2Json(byte[] img, String json) throws Exception {
        long hdrSize = java.nio.ByteBuffer.wrap(img).getLong(8);
        for (long at : new long[] {0, hdrSize}) {
            int a = (int) at;
            byte[] j = json.getBytes(StandardCharsets.UTF_8);
            assertTrue(j.length < hdrSize - 4096, "JSON fits");
            Arrays.fill(img, a + 4096, (int) (a + hdrSize), (byte) 0);
            System.arraycopy(j, 0, img, a + 4096, j.length);
            resum(img, a, (int) hdrSize);
        }
    }

    /** Recomputes the SHA-256 checksum of the LUKS2 header copy at {@code at}. */
    public static void resum(byte[] img, int at, int hdrSize) throws Exception {
        Arrays.fill(img, at + 448, at + 512, (byte) 0);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(img, at, hdrSize);
        System.arraycopy(md.digest(), 0, img, at + 448, 32);
    }

    /** The JSON text of the primary LUKS2 header in {@code image}. */
    public static String luks2Json(Path image) throws IOException {
        byte[] img = Files.readAllBytes(image);
        long hdrSize = java.nio.ByteBuffer.wrap(img).getLong(8);
        int end = 4096;
        while (end < hdrSize && img[end] != 0) {
            end++;
        }
        return new String(img, 4096, end - 4096, StandardCharsets.UTF_8);
    }

    /** A new sparse file of {@code size} bytes at {@code p} (zeros), for a tool to format. */
    public static Path sparse(Path p, long size) throws IOException {
        try (FileChannel f = FileChannel.open(p, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            f.write(ByteBuffer.allocate(1), size - 1);
        }
        return p;
    }

    /** cryptsetup's fast KDF options for {@code pbkdf}: 1000 PBKDF2 iterations, or Argon2 at 4 × 1 MiB, one lane. */
    public static List<String> fastKdfOptions(String pbkdf) {
        return pbkdf.equals("pbkdf2") ? List.of("--pbkdf-force-iterations", "1000")
                : List.of("--pbkdf-force-iterations", "4", "--pbkdf-memory", "1024", "--pbkdf-parallel", "1");
    }

    /** {@code cryptsetup luksFormat --type luks2} of {@code img} with these options, passphrase "pw". */
    public static void cryptsetupLuks2(Path img, String cipher, int bits, String pbkdf, String hash) throws Exception {
        List<String> c = new ArrayList<>(List.of("cryptsetup", "luksFormat", "-q", "--type", "luks2", "--cipher", cipher,
                "--key-size", String.valueOf(bits), "--pbkdf", pbkdf, "--hash", hash));
        c.addAll(fastKdfOptions(pbkdf));
        c.addAll(List.of("--key-file", "-", img.toString()));
        ok("pw".getBytes(StandardCharsets.UTF_8), c.toArray(String[]::new));
    }

    /**
     * {@code cryptsetup luksDump} of {@code img} without what is random (UUID, salts, digest) and
     * the epoch (cryptsetup writes its header several times while formatting): two volumes with
     * the same layout give the same text.
     */
    public static String luksLayout(Path img) throws Exception {
        return ok(null, "cryptsetup", "luksDump", img.toString()).out().replaceAll("(?m)^(Epoch|UUID):.*$", "$1: -")
                .replaceAll("(?m)^(\\t(Salt|Digest|AF hash)?:?\\s*)([0-9a-f]{2} )+\\s*$", "$1-")
                .replaceAll("(?m)^\\t\\s+([0-9a-f]{2} )+\\s*$", "\\t-");
    }

    /**
     * A LUKS2 volume cryptsetup formats with its header detached: {@code hdr} (16 MiB) and
     * {@code data} (1 MiB) made here, {@code pass} in key slot 0 (PBKDF2, 1000 iterations).
     */
    public static void cryptsetupDetached(Path hdr, Path data, byte[] pass) throws Exception {
        sparse(hdr, 16L << 20);
        sparse(data, 1L << 20);
        ok(pass, "cryptsetup", "luksFormat", "-q", "--type", "luks2", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations",
                "1000", "--header", hdr.toString(), "--key-file", "-", data.toString());
    }

    public static KeySlotOptions fast(String pbkdf) throws VolumeException {
        return KeySlotOptions.defaults().pbkdf(pbkdf).forceIterations(pbkdf.equals("pbkdf2") ? 1000 : 4)
                .memoryKib(1024).parallel(1);
    }

    public static int cryptsetupTest(Path img, byte[] pass, Integer slot) throws Exception {
        List<String> c = new ArrayList<>(List.of("cryptsetup", "open", "--test-passphrase", "--key-file", "-"));
        if (slot != null) {
            c.addAll(List.of("--key-slot", String.valueOf(slot)));
        }
        c.add(img.toString());
        return TestImages.run(pass, c.toArray(String[]::new)).rc();
    }

    /** The hex after "MK dump:" (cryptsetup 2.6 luksDump --dump-volume-key), over its lines. */
    public static byte[] dumpedKey(String dump) {
        int i = dump.indexOf("MK dump:");
        assertTrue(i >= 0, dump);
        StringBuilder hex = new StringBuilder();
        for (String line : dump.substring(i + "MK dump:".length()).split("\n")) {
            String t = line.trim();
            if (!t.matches("([0-9a-f]{2} ?)+")) {
                break;
            }
            hex.append(t.replace(" ", ""));
        }
        return HexFormat.of().parseHex(hex);
    }

    public static byte[] first(SeekableByteChannel p) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(512);
        p.position(0).read(b);
        return b.array();
    }
}
