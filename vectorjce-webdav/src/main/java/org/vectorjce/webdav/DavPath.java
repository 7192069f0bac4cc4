package org.vectorjce.webdav;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A request target's path, decoded and checked, and the way back from names to hrefs.
 *
 * <p>Decoding (RFC 3986 sections 2.1 and 3.3, names in UTF-8 as RFC 4918 section 8.3 expects):
 * the path is split at {@code /} first and each segment percent-decoded after, so an encoded
 * {@code %2F} can never become a separator. A segment is refused (400) when it is empty
 * ({@code //}), {@code .} or {@code ..} in any spelling ({@code %2e%2e}), holds a {@code /},
 * a backslash or NUL once decoded, a bad {@code %} escape, or bytes that are not strict UTF-8
 * (overlong forms such as {@code %c0%ae} included). What is left is resolved one name at a time
 * under the served root, and each step checked to be a child of the one before, so no request
 * reaches outside the root whatever the filesystem's own rules are.
 */
final class DavPath {
    /** The decoded segments, in order. */
    final List<String> segments;
    /** Whether the path ended with {@code /}. */
    final boolean slash;
    /** The raw query (after {@code ?}), or null. */
    final String query;

    private DavPath(List<String> segments, boolean slash, String query) {
        this.segments = segments;
        this.slash = slash;
        this.query = query;
    }

    /** Parses an origin-form or absolute-form target (RFC 9112 section 3.2). */
    static DavPath parse(String target) throws HttpError {
        String t = target;
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            int slash = t.indexOf('/', lower.indexOf("//") + 2);
            t = slash < 0 ? "/" : t.substring(slash);
        }
        if (!t.startsWith("/") || t.indexOf('#') >= 0) {
            throw HttpError.bad("the request target is not a path");
        }
        String query = null;
        int q = t.indexOf('?');
        if (q >= 0) {
            query = t.substring(q + 1);
            t = t.substring(0, q);
        }
        boolean slash = t.endsWith("/");
        String body = t.length() == 1 ? "" : t.substring(1, slash ? t.length() - 1 : t.length());
        if (body.isEmpty()) {
            return new DavPath(List.of(), true, query);
        }
        List<String> segments = new ArrayList<>();
        for (String raw : body.split("/", -1)) {
            String s = decode(raw);
            if (s.isEmpty() || s.equals(".") || s.equals("..") || s.indexOf('/') >= 0 || s.indexOf('\\') >= 0
                    || s.indexOf('\0') >= 0) {
                throw HttpError.bad("the path has an empty, dot or escaped-separator segment");
            }
            segments.add(s);
        }
        return new DavPath(Collections.unmodifiableList(segments), slash, query);
    }

    /** Percent-decodes one segment as strict UTF-8 (raw bytes above 0x7F are taken as they are). */
    static String decode(String raw) throws HttpError {
        ByteArrayOutputStream b = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = hi < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
                if (lo < 0) {
                    throw HttpError.bad("a bad percent escape in the path");
                }
                b.write(hi << 4 | lo);
                i += 2;
            } else {
                b.write(c); // the request line's bytes arrive as ISO-8859-1 characters
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw HttpError.bad("the path is not UTF-8");
        }
    }

    /**
     * Resolves {@code segments[from..]} under {@code root}, one name at a time.
     *
     * @throws HttpError 404 when a name is not a plain child name on this filesystem
     */
    Path resolve(Path root, int from) throws HttpError {
        Path p = root;
        String sep = root.getFileSystem().getSeparator();
        for (int i = from; i < segments.size(); i++) {
            String s = segments.get(i);
            if (s.contains(sep)) {
                throw new HttpError(404, "not found", false);
            }
            Path next;
            try {
                next = p.resolve(s);
            } catch (InvalidPathException e) {
                throw new HttpError(404, "not found", false);
            }
            if (next.isAbsolute() != p.isAbsolute() || !p.equals(next.getParent()) || next.getNameCount() != p.getNameCount() + 1) {
                throw new HttpError(404, "not found", false);
            }
            p = next;
        }
        return p;
    }

    /** Percent-encodes a name for a path segment: everything but RFC 3986's unreserved characters, as UTF-8. */
    static String encode(String name) {
        StringBuilder s = new StringBuilder(name.length() + 16);
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                s.append((char) c);
            } else {
                s.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return s.toString();
    }

    /** A query parameter's raw value, or null (the values this server reads are plain words). */
    String param(String name) {
        if (query == null) {
            return null;
        }
        for (String kv : query.split("&")) {
            int eq = kv.indexOf('=');
            String k = eq < 0 ? kv : kv.substring(0, eq);
            if (k.equals(name)) {
                return eq < 0 ? "" : kv.substring(eq + 1);
            }
        }
        return null;
    }
}
