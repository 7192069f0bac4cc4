package org.vectorjce.kat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the public known-answer files under {@code testvectors/} (see the {@code SOURCE.txt} in each
 * folder). Four formats:
 * <ul>
 *   <li>{@link #keyValueBlocks}: blank-line separated {@code NAME = value} blocks with optional
 *       {@code [SECTION]} lines and {@code #} comments: NIST CAVP {@code .rsp} ({@code [ENCRYPT]} /
 *       {@code [DECRYPT]}), the normalised {@code .txt} files (SP 800-38A, IEEE 1619, RFC 3686),
 *       the Linux testmgr text format and Botan {@code .vec} ({@code [Twofish/XTS]} sections);</li>
 *   <li>{@link #twofishSubmission}: the Twofish AES-submission files ({@code KEYSIZE=}, {@code I=},
 *       {@code KEY=}, {@code PT=}, {@code CT=}, {@code IV=}; fields given before the first
 *       {@code I=} of a key size apply to all its records);</li>
 *   <li>{@link #json}: a small JSON reader for the Wycheproof files (no JSON library on the test
 *       class path).</li>
 * </ul>
 * Every reader fails (with an {@link AssertionError}) when the file is missing or yields no record.
 */
public final class VectorFiles {
    private static final HexFormat HEX = HexFormat.of();

    private VectorFiles() {
    }

    /** One parsed record: its section (or {@code ""}), first line number and fields in file order. */
    public record Rec(String file, String section, int line, int index, Map<String, String> fields) {
        /** The field value, or {@code null}. */
        public String get(String name) {
            return fields.get(name);
        }

        public boolean has(String name) {
            return fields.containsKey(name);
        }

        /** The field value; fails the test when absent. */
        public String req(String name) {
            String v = fields.get(name);
            if (v == null) {
                throw new AssertionError(where() + ": field " + name + " missing (fields " + fields.keySet() + ")");
            }
            return v;
        }

        public byte[] hex(String name) {
            try {
                return VectorFiles.hex(req(name));
            } catch (IllegalArgumentException e) {
                throw new AssertionError(where() + ": field " + name + " is not hex: " + e.getMessage(), e);
            }
        }

        public int integer(String name) {
            return Integer.parseInt(req(name).trim());
        }

        /** {@code file:line} plus the section, for failure messages. */
        public String where() {
            return file + ":" + line + (section.isEmpty() ? "" : " [" + section + "]");
        }
    }

    /** The {@code testvectors/} folder of the project. */
    public static Path root() {
        String configured = System.getProperty("vectorjce.testvectors");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Path p = Path.of("testvectors");
        if (Files.isDirectory(p)) {
            return p;
        }
        String basedir = System.getProperty("basedir");
        if (basedir != null) {
            Path q = Path.of(basedir, "testvectors");
            if (Files.isDirectory(q)) {
                return q;
            }
        }
        return p;
    }

    /** A file below {@link #root()}; fails the test when it does not exist. */
    public static Path file(String relative) {
        Path p = root().resolve(relative);
        if (!Files.isRegularFile(p)) {
            throw new AssertionError("test-vector file missing: " + p.toAbsolutePath());
        }
        return p;
    }

    public static List<String> lines(String relative) {
        Path p = file(relative);
        try {
            return Files.readAllLines(p, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }

    /** Lower- or upper-case hex, surrounding white space ignored; {@code ""} is the empty array. */
    public static byte[] hex(String s) {
        String t = s.strip();
        return t.isEmpty() ? new byte[0] : HEX.parseHex(t);
    }

    public static String hex(byte[] b) {
        return HEX.formatHex(b);
    }

    /**
     * Blank-line separated {@code NAME = value} blocks. A {@code [X]} line starts section {@code X}
     * (and ends the current block); lines starting with {@code #} are ignored and do not end a block;
     * a name that repeats inside a block (e.g. {@code COMMENT}) keeps all values joined by
     * {@code " / "}. Lines of any other form fail the parse, so no data is silently dropped.
     */
    public static List<Rec> keyValueBlocks(String relative) {
        List<String> lines = lines(relative);
        List<Rec> out = new ArrayList<>();
        String section = "";
        Map<String, String> cur = null;
        int curLine = 0;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isEmpty() || line.startsWith("[")) {
                if (cur != null) {
                    out.add(new Rec(relative, section, curLine, out.size(), Collections.unmodifiableMap(cur)));
                    cur = null;
                }
                if (line.startsWith("[")) {
                    if (!line.endsWith("]")) {
                        throw new AssertionError(relative + ":" + (n + 1) + ": bad section line: " + line);
                    }
                    section = line.substring(1, line.length() - 1).strip();
                }
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new AssertionError(relative + ":" + (n + 1) + ": unexpected line: " + line);
            }
            String name = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (cur == null) {
                cur = new LinkedHashMap<>();
                curLine = n + 1;
            }
            cur.merge(name, value, (a, b) -> a + " / " + b);
        }
        if (cur != null) {
            out.add(new Rec(relative, section, curLine, out.size(), Collections.unmodifiableMap(cur)));
        }
        if (out.isEmpty()) {
            throw new AssertionError(relative + ": no records");
        }
        return out;
    }

    /**
     * The Twofish AES-submission layout. {@code KEYSIZE=n} starts a section named {@code n};
     * {@code NAME=value} lines before the section's first {@code I=} are defaults for all its
     * records ({@code PT} in ecb_vk, {@code KEY} in ecb_vt); {@code I=} starts a record; a blank
     * line ends it. Headers, free text and {@code ====} lines are ignored.
     */
    public static List<Rec> twofishSubmission(String relative) {
        List<String> lines = lines(relative);
        List<Rec> out = new ArrayList<>();
        String section = "";
        Map<String, String> defaults = new LinkedHashMap<>();
        Map<String, String> cur = null;
        int curLine = 0;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            // Field lines look like NAME=value with NAME in capitals and no spaces.
            int eq = line.indexOf('=');
            boolean field = eq > 0 && line.substring(0, eq).matches("[A-Z]+") && !line.startsWith("=")
                    && line.substring(eq + 1).matches("[0-9A-Fa-f]*");
            if (!field) {
                if (cur != null) {
                    out.add(new Rec(relative, section, curLine, out.size(), Collections.unmodifiableMap(cur)));
                    cur = null;
                }
                continue;
            }
            String name = line.substring(0, eq);
            String value = line.substring(eq + 1);
            switch (name) {
                case "KEYSIZE" -> {
                    section = value;
                    defaults = new LinkedHashMap<>();
                    defaults.put("KEYSIZE", value);
                }
                case "I" -> {
                    if (cur != null) {
                        out.add(new Rec(relative, section, curLine, out.size(), Collections.unmodifiableMap(cur)));
                    }
                    cur = new LinkedHashMap<>(defaults);
                    cur.put("I", value);
                    curLine = n + 1;
                }
                default -> {
                    if (cur != null) {
                        cur.put(name, value);
                    } else {
                        defaults.put(name, value);
                    }
                }
            }
        }
        if (cur != null) {
            out.add(new Rec(relative, section, curLine, out.size(), Collections.unmodifiableMap(cur)));
        }
        if (out.isEmpty()) {
            throw new AssertionError(relative + ": no records");
        }
        return out;
    }

    /** Counts lines that start with {@code prefix} (an independent check on the parsers). */
    public static int countLinesStartingWith(String relative, String prefix) {
        int c = 0;
        for (String l : lines(relative)) {
            if (l.startsWith(prefix)) {
                c++;
            }
        }
        return c;
    }

    // ---------------------------------------------------------------------------------------------
    // Minimal JSON reader: objects -> LinkedHashMap, arrays -> ArrayList, strings, BigDecimal,
    // Boolean, null.

    /** Parses a JSON file below {@link #root()}. */
    public static Object json(String relative) {
        Path p = file(relative);
        String text;
        try {
            text = Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
        JsonReader r = new JsonReader(text, relative);
        Object v = r.value();
        r.ws();
        if (r.pos != text.length()) {
            throw r.error("trailing data");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> obj(Object o) {
        if (!(o instanceof Map)) {
            throw new AssertionError("JSON object expected, got " + o);
        }
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> arr(Object o) {
        if (!(o instanceof List)) {
            throw new AssertionError("JSON array expected, got " + o);
        }
        return (List<Object>) o;
    }

    private static final class JsonReader {
        final String s;
        final String name;
        int pos;

        JsonReader(String s, String name) {
            this.s = s;
            this.name = name;
        }

        AssertionError error(String msg) {
            return new AssertionError(name + ": JSON error at offset " + pos + ": " + msg);
        }

        void ws() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        void expect(char c) {
            ws();
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw error("'" + c + "' expected");
            }
            pos++;
        }

        Object value() {
            ws();
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{': {
                    pos++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (s.charAt(pos) == '}') {
                        pos++;
                        return m;
                    }
                    while (true) {
                        ws();
                        String k = string();
                        expect(':');
                        m.put(k, value());
                        ws();
                        char d = s.charAt(pos++);
                        if (d == '}') {
                            return m;
                        }
                        if (d != ',') {
                            pos--;
                            throw error("',' or '}' expected");
                        }
                    }
                }
                case '[': {
                    pos++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (s.charAt(pos) == ']') {
                        pos++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        ws();
                        char d = s.charAt(pos++);
                        if (d == ']') {
                            return l;
                        }
                        if (d != ',') {
                            pos--;
                            throw error("',' or ']' expected");
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    return number();
            }
        }

        Object literal(String word, Object v) {
            if (!s.startsWith(word, pos)) {
                throw error(word + " expected");
            }
            pos += word.length();
            return v;
        }

        BigDecimal number() {
            int start = pos;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            if (start == pos) {
                throw error("value expected");
            }
            return new BigDecimal(s.substring(start, pos));
        }

        String string() {
            if (pos >= s.length() || s.charAt(pos) != '"') {
                throw error("string expected");
            }
            pos++;
            StringBuilder b = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> throw error("bad escape \\" + e);
                }
            }
        }
    }
}
