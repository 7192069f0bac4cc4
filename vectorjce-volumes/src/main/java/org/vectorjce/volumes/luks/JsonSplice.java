package org.vectorjce.volumes.luks;

import java.util.ArrayList;
import java.util.List;

/**
 * Edits LUKS2 JSON text in place: each edit replaces, inserts or removes the text of one member
 * and leaves every other byte as it was, so members and tokens this library does not know survive
 * an update byte for byte (re-serialising a parsed tree would reorder, re-space or re-escape them).
 * The text must already have been accepted by {@link Json#parse}; the scanner here only locates
 * spans (a member's name and value, by the decoded name) and does not validate again.
 */
final class JsonSplice {
    private String text;

    JsonSplice(String text) {
        this.text = text;
    }

    String text() {
        return text;
    }

    /** One member of an object: where its name starts, where its value starts and ends. */
    private record Member(String name, int nameStart, int valueStart, int valueEnd) {
    }

    /** The text of the value at {@code path} (object member names from the root), or null. */
    String value(String... path) {
        int[] s = span(path);
        return s == null ? null : text.substring(s[0], s[1]);
    }

    /** Replaces the value at {@code path}, which must exist, by {@code json}. */
    void replace(String[] path, String json) {
        int[] s = need(path);
        text = text.substring(0, s[0]) + json + text.substring(s[1]);
    }

    /** Appends member {@code name} with value {@code json} to the object at {@code path}. */
    void insert(String[] path, String name, String json) {
        int[] s = need(path);
        if (text.charAt(s[0]) != '{') {
            throw new IllegalArgumentException(String.join(".", path) + " is not an object");
        }
        List<Member> ms = members(s[0]);
        for (Member m : ms) {
            if (m.name().equals(name)) {
                throw new IllegalArgumentException(String.join(".", path) + " already has " + name);
            }
        }
        String member = quote(name) + ":" + json;
        if (ms.isEmpty()) {
            text = text.substring(0, s[0] + 1) + member + text.substring(s[0] + 1);
        } else {
            int at = ms.get(ms.size() - 1).valueEnd();
            text = text.substring(0, at) + "," + member + text.substring(at);
        }
    }

    /** Removes member {@code name}, which must exist, from the object at {@code path}, with one comma. */
    void remove(String[] path, String name) {
        int[] s = need(path);
        List<Member> ms = members(s[0]);
        for (int i = 0; i < ms.size(); i++) {
            Member m = ms.get(i);
            if (!m.name().equals(name)) {
                continue;
            }
            int from, to;
            if (i + 1 < ms.size()) {
                from = m.nameStart();
                to = ms.get(i + 1).nameStart(); // the comma and white space after it go too
            } else if (i > 0) {
                from = ms.get(i - 1).valueEnd(); // the comma before it
                to = m.valueEnd();
            } else {
                from = m.nameStart();
                to = m.valueEnd();
            }
            text = text.substring(0, from) + text.substring(to);
            return;
        }
        throw new IllegalArgumentException(String.join(".", path) + " has no " + name);
    }

    /** The names of the members of the object at {@code path}, in text order. */
    List<String> names(String... path) {
        int[] s = need(path);
        List<String> n = new ArrayList<>();
        for (Member m : members(s[0])) {
            n.add(m.name());
        }
        return n;
    }

    /** A JSON string for {@code s}. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** A JSON array of strings, compact, as cryptsetup writes the id lists of digests and tokens. */
    static String stringArray(List<String> items) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < items.size(); i++) {
            b.append(i == 0 ? "" : ",").append(quote(items.get(i)));
        }
        return b.append(']').toString();
    }

    private int[] need(String[] path) {
        int[] s = span(path);
        if (s == null) {
            throw new IllegalArgumentException("No " + String.join(".", path) + " in the JSON");
        }
        return s;
    }

    private int[] span(String[] path) {
        int start = ws(0);
        int end = skipValue(start);
        for (String p : path) {
            if (text.charAt(start) != '{') {
                return null;
            }
            Member found = null;
            for (Member m : members(start)) {
                if (m.name().equals(p)) {
                    found = m;
                }
            }
            if (found == null) {
                return null;
            }
            start = found.valueStart();
            end = found.valueEnd();
        }
        return new int[] {start, end};
    }

    private List<Member> members(int objectStart) {
        List<Member> ms = new ArrayList<>();
        int i = ws(objectStart + 1);
        if (text.charAt(i) == '}') {
            return ms;
        }
        while (true) {
            i = ws(i);
            int nameStart = i;
            int nameEnd = skipString(i);
            String name = decode(nameStart, nameEnd);
            i = ws(nameEnd) + 1; // ':'
            int vs = ws(i);
            int ve = skipValue(vs);
            ms.add(new Member(name, nameStart, vs, ve));
            i = ws(ve);
            if (text.charAt(i) == '}') {
                return ms;
            }
            i++; // ','
        }
    }

    private int ws(int i) {
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                break;
            }
            i++;
        }
        return i;
    }

    private int skipValue(int i) {
        char c = text.charAt(i);
        if (c == '"') {
            return skipString(i);
        }
        if (c == '{' || c == '[') {
            int depth = 0;
            while (true) {
                char d = text.charAt(i);
                if (d == '"') {
                    i = skipString(i);
                    continue;
                }
                if (d == '{' || d == '[') {
                    depth++;
                } else if (d == '}' || d == ']') {
                    depth--;
                    if (depth == 0) {
                        return i + 1;
                    }
                }
                i++;
            }
        }
        // number or literal
        while (i < text.length() && "{}[],: \t\n\r".indexOf(text.charAt(i)) < 0) {
            i++;
        }
        return i;
    }

    /** The index after the string that starts (with its quote) at {@code i}. */
    private int skipString(int i) {
        i++;
        while (true) {
            char c = text.charAt(i++);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
    }

    private String decode(int start, int end) {
        String raw = text.substring(start + 1, end - 1);
        if (raw.indexOf('\\') < 0) {
            return raw;
        }
        try {
            return (String) Json.parse(text.substring(start, end));
        } catch (org.vectorjce.volumes.CorruptHeaderException e) {
            throw new IllegalStateException("JSON text was not validated before splicing", e);
        }
    }
}
