package org.vectorjce.fs.lvm;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vectorjce.fs.CorruptFileSystemException;

/**
 * LVM2's configuration text, in which its metadata is written ({@code libdm/libdm-config.c}):
 * {@code name = value} items and {@code name { ... }} sections; a value is a number (decimal, as
 * {@link Long}; one with a point is kept as its {@link String} form in a {@link Decimal}), a string
 * in double quotes with backslash escapes, or an array {@code [ v, v, ... ]} of those (the commas are
 * optional, as lvm's own parser allows); {@code #} starts a comment to the line's end. Single-quoted
 * strings, which lvm's parser takes but never writes in metadata, are refused.
 *
 * <p>The text is attacker data: sections nest at most {@value #MAX_DEPTH} deep, a text holds at
 * most {@value #MAX_ITEMS} items and values, a number must fit a {@code long}, a name appears once
 * per section; anything else is a {@link CorruptFileSystemException} naming the line. The parser
 * recurses only per section level, so its stack is bounded by the depth.
 */
final class ConfigText {
    static final int MAX_DEPTH = 32;
    static final int MAX_ITEMS = 1 << 18;

    /** A section's items in text order: name to Long, String, Decimal, List or Map (a subsection). */
    static final class Section extends LinkedHashMap<String, Object> {
        private static final long serialVersionUID = 1L;
    }

    /** A number with a decimal point, kept as written. */
    record Decimal(String text) {
    }

    private final byte[] t;
    private final long offset;
    private int p;
    private int items;

    private ConfigText(byte[] text, long offset) {
        this.t = text;
        this.offset = offset;
    }

    /**
     * The top-level section of {@code text}.
     *
     * @param offset the text's byte offset on the device, for the messages
     */
    static Section parse(byte[] text, long offset) throws CorruptFileSystemException {
        ConfigText c = new ConfigText(text, offset);
        Section top = c.section(0);
        c.skip();
        if (c.p < c.t.length) {
            throw c.error("'}' without a section to close");
        }
        return top;
    }

    private Section section(int depth) throws CorruptFileSystemException {
        if (depth > MAX_DEPTH) {
            throw error("sections nest more than " + MAX_DEPTH + " deep");
        }
        Section s = new Section();
        while (true) {
            skip();
            if (p >= t.length || t[p] == '}') {
                return s;
            }
            String name = identifier();
            skip();
            Object value;
            if (p < t.length && t[p] == '{') {
                p++;
                value = section(depth + 1);
                skip();
                if (p >= t.length || t[p] != '}') {
                    throw error("section " + name + " is not closed");
                }
                p++;
            } else if (p < t.length && t[p] == '=') {
                p++;
                skip();
                value = p < t.length && t[p] == '[' ? array() : simple();
            } else {
                throw error("'=' or '{' expected after " + name);
            }
            count();
            if (s.putIfAbsent(name, value) != null) {
                throw error(name + " appears twice in one section");
            }
        }
    }

    private List<Object> array() throws CorruptFileSystemException {
        p++;
        List<Object> list = new ArrayList<>();
        while (true) {
            skip();
            if (p >= t.length) {
                throw error("array is not closed");
            }
            if (t[p] == ']') {
                p++;
                return Collections.unmodifiableList(list);
            }
            if (t[p] == ',') {
                p++;
                continue;
            }
            list.add(simple());
            count();
        }
    }

    private Object simple() throws CorruptFileSystemException {
        if (p >= t.length) {
            throw error("value expected at the end of the text");
        }
        byte b = t[p];
        if (b == '"') {
            return string();
        }
        if (b == '-' || b == '+' || (b >= '0' && b <= '9')) {
            return number();
        }
        throw error("value expected, found '" + (char) (b & 0xff) + "'");
    }

    private String string() throws CorruptFileSystemException {
        p++;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            if (p >= t.length) {
                throw error("string is not closed");
            }
            byte b = t[p++];
            if (b == '"') {
                return out.toString(StandardCharsets.UTF_8);
            }
            if (b == '\\') {
                if (p >= t.length) {
                    throw error("string is not closed");
                }
                b = t[p++];
            }
            out.write(b);
        }
    }

    private Object number() throws CorruptFileSystemException {
        int start = p;
        p++;
        boolean point = false;
        while (p < t.length && ((t[p] >= '0' && t[p] <= '9') || t[p] == '.')) {
            point |= t[p] == '.';
            p++;
        }
        String s = new String(t, start, p - start, StandardCharsets.US_ASCII);
        if (point) {
            return new Decimal(s);
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw error("number " + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + " is not a 64-bit integer");
        }
    }

    private String identifier() throws CorruptFileSystemException {
        int start = p;
        while (p < t.length && !special(t[p])) {
            p++;
        }
        if (p == start) {
            throw error("name expected, found '" + (char) (t[p] & 0xff) + "'");
        }
        return new String(t, start, p - start, StandardCharsets.UTF_8);
    }

    private static boolean special(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0b || b == '#' || b == '='
                || b == '{' || b == '}' || b == '[' || b == ']' || b == ',' || b == '"' || b == '\'';
    }

    /** Skips white space and comments. */
    private void skip() {
        while (p < t.length) {
            byte b = t[p];
            if (b == '#') {
                while (p < t.length && t[p] != '\n') {
                    p++;
                }
            } else if (b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0b) {
                p++;
            } else {
                return;
            }
        }
    }

    private void count() throws CorruptFileSystemException {
        if (++items > MAX_ITEMS) {
            throw error("more than " + MAX_ITEMS + " items");
        }
    }

    private CorruptFileSystemException error(String what) {
        int line = 1;
        for (int i = 0; i < Math.min(p, t.length); i++) {
            if (t[i] == '\n') {
                line++;
            }
        }
        return new CorruptFileSystemException("LVM metadata text, line " + line + ": " + what, offset);
    }

    /** {@code s.get(name)} when it is a {@code type}, else null. */
    static <T> T get(Map<String, Object> s, String name, Class<T> type) {
        Object v = s.get(name);
        return type.isInstance(v) ? type.cast(v) : null;
    }
}
