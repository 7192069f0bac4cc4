package org.vectorjce.volumes.internal;

/**
 * A volume key as cryptsetup's {@code --dump-volume-key} prints it after {@code "MK dump:\t"}:
 * lower-case hex bytes each followed by a space, 16 to a line, the lines after the first indented
 * by two tabs, a newline at the end.
 */
public final class KeyDump {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private KeyDump() {
    }

    /** {@code key} in cryptsetup's "MK dump" layout (the caller wipes the key and the text). */
    public static String mkDump(byte[] key) {
        StringBuilder s = new StringBuilder(key.length * 3 + key.length / 16 * 3 + 1);
        for (int i = 0; i < key.length; i++) {
            if (i > 0 && i % 16 == 0) {
                s.append("\n\t\t");
            }
            s.append(HEX[(key[i] >> 4) & 15]).append(HEX[key[i] & 15]).append(' ');
        }
        return s.append('\n').toString();
    }
}
