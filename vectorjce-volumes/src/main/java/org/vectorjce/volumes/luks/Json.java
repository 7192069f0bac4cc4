package org.vectorjce.volumes.luks;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.vectorjce.volumes.CorruptHeaderException;

/**
 * A strict JSON parser (RFC 8259) for the LUKS2 metadata area: objects become
 * {@code Map<String, Object>} in member order, arrays {@code List<Object>}, strings
 * {@code String}, numbers {@code BigInteger} (integers) or {@code BigDecimal}, {@code true} and
 * {@code false} {@code Boolean}, {@code null} {@link #NULL}. The input is bounded by the caller (the
 * JSON area's size); nesting is bounded by {@link #MAX_DEPTH} so a forged header cannot exhaust the
 * stack; a duplicate member name is refused (json-c would keep the last one silently).
 */
final class Json {
    /** Deeper than any LUKS2 metadata (which nests four levels). */
    static final int MAX_DEPTH = 32;
    /** The JSON {@code null}. */
    static final Object NULL = new Object() {
        @Override public String toString() { return "null"; }
    };

    private final String s;
    private int i;

    private Json(String s) {
        this.s = s;
    }

    /** Parses {@code text}, which must hold one value and nothing but white space after it. */
    static Object parse(String text) throws CorruptHeaderException {
        Json j = new Json(text);
        j.ws();
        Object v = j.value(0);
        j.ws();
        if (j.i != text.length()) {
            throw j.error("text after the JSON value");
        }
        return v;
    }

    private CorruptHeaderException error(String what) {
        return new CorruptHeaderException("LUKS2 JSON metadata is not valid JSON: " + what + " at character " + i);
    }

    private void ws() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                i++;
            } else {
                break;
            }
        }
    }

    private Object value(int depth) throws CorruptHeaderException {
        if (depth > MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH);
        }
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(i);
        switch (c) {
            case '{': return object(depth);
            case '[': return array(depth);
            case '"': return string();
            case 't': literal("true"); return Boolean.TRUE;
            case 'f': literal("false"); return Boolean.FALSE;
            case 'n': literal("null"); return NULL;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected '" + printable(c) + "'");
        }
    }

    private static String printable(char c) {
        return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
    }

    private void literal(String word) throws CorruptHeaderException {
        if (!s.startsWith(word, i)) {
            throw error("unknown literal");
        }
        i += word.length();
    }

    private Map<String, Object> object(int depth) throws CorruptHeaderException {
        i++; // {
        Map<String, Object> m = new LinkedHashMap<>();
        ws();
        if (i < s.length() && s.charAt(i) == '}') {
            i++;
            return Collections.unmodifiableMap(m);
        }
        while (true) {
            ws();
            if (i >= s.length() || s.charAt(i) != '"') {
                throw error("expected a member name");
            }
            String name = string();
            ws();
            if (i >= s.length() || s.charAt(i) != ':') {
                throw error("expected ':'");
            }
            i++;
            ws();
            Object v = value(depth + 1);
            if (m.put(name, v) != null) {
                throw error("duplicate member \"" + name + "\"");
            }
            ws();
            if (i >= s.length()) {
                throw error("unexpected end in an object");
            }
            char c = s.charAt(i++);
            if (c == '}') {
                return Collections.unmodifiableMap(m);
            }
            if (c != ',') {
                i--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array(int depth) throws CorruptHeaderException {
        i++; // [
        List<Object> l = new ArrayList<>();
        ws();
        if (i < s.length() && s.charAt(i) == ']') {
            i++;
            return Collections.unmodifiableList(l);
        }
        while (true) {
            ws();
            l.add(value(depth + 1));
            ws();
            if (i >= s.length()) {
                throw error("unexpected end in an array");
            }
            char c = s.charAt(i++);
            if (c == ']') {
                return Collections.unmodifiableList(l);
            }
            if (c != ',') {
                i--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() throws CorruptHeaderException {
        i++; // "
        StringBuilder b = new StringBuilder();
        while (true) {
            if (i >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                i--;
                throw error("control character in a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) {
                throw error("unterminated escape");
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"': b.append('"'); break;
                case '\\': b.append('\\'); break;
                case '/': b.append('/'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'n': b.append('\n'); break;
                case 'r': b.append('\r'); break;
                case 't': b.append('\t'); break;
                case 'u':
                    if (i + 4 > s.length()) {
                        throw error("short \\u escape");
                    }
                    int v = 0;
                    for (int k = 0; k < 4; k++) {
                        int d = Character.digit(s.charAt(i++), 16);
                        if (d < 0) {
                            throw error("bad \\u escape");
                        }
                        v = v * 16 + d;
                    }
                    b.append((char) v);
                    break;
                default:
                    i--;
                    throw error("bad escape '\\" + printable(e) + "'");
            }
        }
    }

    private Object number() throws CorruptHeaderException {
        int start = i;
        if (s.charAt(i) == '-') {
            i++;
        }
        if (i < s.length() && s.charAt(i) == '0') {
            i++;
        } else if (!digits()) {
            throw error("bad number");
        }
        boolean integral = true;
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            integral = false;
            if (!digits()) {
                throw error("bad number");
            }
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            integral = false;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            if (!digits()) {
                throw error("bad number");
            }
        }
        String t = s.substring(start, i);
        if (t.length() > 40) {
            throw error("number too long");
        }
        return integral ? new BigInteger(t) : new BigDecimal(t);
    }

    private boolean digits() {
        int start = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i > start;
    }
}
