package org.vectorjce.volumes.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.vectorjce.device.Device;
import org.vectorjce.device.spi.DeviceOpener;
import org.vectorjce.volumes.Volume;
import org.vectorjce.volumes.VolumeException;
import org.vectorjce.volumes.VolumeFormat;
import org.vectorjce.volumes.Volumes;

/**
 * The {@link DeviceOpener} of this library: an image with a LUKS, BitLocker or FileVault 2
 * signature, or any image when {@code env} names {@code "type"}, opened read-only with the secrets
 * in {@code env}, as its plaintext device. Closing the device closes the volume (which wipes its key).
 *
 * <p>The keys of {@code env} it reads (others are left to other readers):
 * <ul>
 * <li>{@code "type"}: {@code luks}, {@code luks1}, {@code luks2}, {@code tcrypt}, {@code bitlk} or
 *     {@code fvault2} (a String or a {@link VolumeFormat}); {@code none} reads the image as it is;
 * <li>{@code "passphrase"}: a {@code char[]}, {@code byte[]} or String (a BitLocker password);
 * <li>{@code "keyFile"}: a {@link Path} or String (LUKS key file, VeraCrypt keyfile);
 * <li>{@code "recoveryPassword"}: BitLocker's 48-digit recovery password (char[] or String);
 * <li>{@code "startupKey"}: a BitLocker {@code .BEK} file (Path or String);
 * <li>{@code "volumeKey"}: the volume key itself ({@code byte[]});
 * <li>{@code "pim"}: VeraCrypt's PIM (an Integer); {@code "hidden"}: TRUE for a hidden volume;
 * <li>{@code "header"}: a detached LUKS header (Path or String).
 * </ul>
 * The arrays given are copied: the caller wipes its own.
 */
public final class VolumeDeviceOpener implements DeviceOpener {
    private static final Set<String> SECRETS = Set.of("passphrase", "keyFile", "recoveryPassword", "startupKey",
            "volumeKey", "pim", "hidden", "header");

    @Override
    public Device open(Path image, Map<String, ?> env) throws IOException {
        Object t = env.get("type");
        VolumeFormat format;
        if (t == null) {
            format = Volumes.detect(image);
            if (format == null) {
                return null;
            }
        } else {
            String name = t instanceof VolumeFormat f ? f.name() : t.toString().toUpperCase(Locale.ROOT);
            if (name.equals("NONE")) {
                return null;
            }
            format = switch (name) {
                case "LUKS" -> Volumes.detect(image) == VolumeFormat.LUKS1 ? VolumeFormat.LUKS1 : VolumeFormat.LUKS2;
                case "LUKS1", "LUKS2", "TCRYPT", "BITLK", "FVAULT2" -> VolumeFormat.valueOf(name);
                default -> throw new IllegalArgumentException("type " + t
                        + ": luks, luks1, luks2, tcrypt, bitlk, fvault2 or none");
            };
        }
        Volumes.Builder b = Volumes.open(image).type(format);
        try {
            secrets(b, env);
            Volume v = b.open();
            try {
                return new VolumeDevice(v, v.device());
            } catch (IOException | VolumeException | RuntimeException e) {
                v.close();
                throw e;
            }
        } catch (VolumeException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static void secrets(Volumes.Builder b, Map<String, ?> env) throws IOException {
        for (String key : SECRETS) {
            Object v = env.get(key);
            if (v == null) {
                continue;
            }
            switch (key) {
                case "passphrase" -> {
                    if (v instanceof char[] c) {
                        b.passphrase(c.clone());
                    } else if (v instanceof byte[] by) {
                        b.passphrase(by.clone());
                    } else {
                        b.passphrase(v.toString().getBytes(StandardCharsets.UTF_8));
                    }
                }
                case "keyFile" -> b.keyFile(path(v));
                case "recoveryPassword" -> b.recoveryPassword(v instanceof char[] c ? c.clone() : v.toString().toCharArray());
                case "startupKey" -> b.startupKey(path(v));
                case "volumeKey" -> {
                    if (!(v instanceof byte[] k)) {
                        throw new IllegalArgumentException("env \"volumeKey\": a byte[], not a " + v.getClass().getName());
                    }
                    b.volumeKey(k.clone());
                }
                case "pim" -> {
                    if (!(v instanceof Integer || v instanceof String)) {
                        throw new IllegalArgumentException("env \"pim\": an Integer, not a " + v.getClass().getName());
                    }
                    b.pim(v instanceof Integer i ? i : Integer.parseInt(v.toString().trim()));
                }
                case "hidden" -> {
                    if (Boolean.TRUE.equals(v)) {
                        b.hidden();
                    }
                }
                case "header" -> b.header(path(v));
                default -> throw new AssertionError(key);
            }
        }
    }

    private static Path path(Object v) {
        return v instanceof Path p ? p : Path.of(v.toString());
    }

    /** The volume's device; closing it closes the volume; flush is the volume's. */
    private record VolumeDevice(Volume volume, Device device) implements Device {
        @Override
        public long size() {
            return device.size();
        }

        @Override
        public boolean readOnly() {
            return device.readOnly();
        }

        @Override
        public int alignment() {
            return device.alignment();
        }

        @Override
        public int read(ByteBuffer dst, long offset) throws IOException {
            return device.read(dst, offset);
        }

        @Override
        public void write(ByteBuffer src, long offset) throws IOException {
            device.write(src, offset);
        }

        @Override
        public void flush() throws IOException {
            volume.flush();
        }

        @Override
        public void close() throws IOException {
            try (volume) {
                device.close();
            }
        }

        @Override
        public String toString() {
            return "the plaintext of a " + volume.info().format().typeName() + " volume";
        }
    }
}
