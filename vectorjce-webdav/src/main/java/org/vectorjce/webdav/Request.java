package org.vectorjce.webdav;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One parsed request head (RFC 9112 sections 2 to 6): the request line and the header fields,
 * read within {@link Limits}' sizes. Anything malformed is an {@link HttpError} with the status
 * RFC 9112 names: 400 (and the connection closed), 414 for a long request line, 431 for too many
 * or too long header fields, 505 for an HTTP version other than 1.x.
 */
final class Request {
    final String method;
    /** The request target as sent, each byte one ISO-8859-1 character. */
    final String target;
    /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
    final int minor;
    private final Map<String, List<String>> fields;

    private Request(String method, String target, int minor, Map<String, List<String>> fields) {
        this.method = method;
        this.target = target;
        this.minor = minor;
        this.fields = fields;
    }

    /**
     * Reads a request head.
     *
     * @return the request, or null when the client closed the connection before its first byte
     */
    static Request read(HttpInput in, Limits limits) throws IOException {
        HttpError longLine = new HttpError(414, "the request line is too long", true);
        String line = "";
        // RFC 9112 section 2.2: ignore at least one empty line before a request line
        for (int empty = 0; line.isEmpty(); empty++) {
            if (empty == 4) {
                throw HttpError.bad("empty lines instead of a request line");
            }
            if (!in.awaitByte()) {
                return null;
            }
            line = in.line(limits.requestLine(), longLine);
        }
        int sp1 = line.indexOf(' ');
        int sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
        if (sp1 <= 0 || sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0) {
            throw HttpError.bad("the request line is not METHOD TARGET VERSION");
        }
        String method = line.substring(0, sp1);
        String target = line.substring(sp1 + 1, sp2);
        String version = line.substring(sp2 + 1);
        if (!isToken(method) || target.isEmpty()) {
            throw HttpError.bad("the request line is not METHOD TARGET VERSION");
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c == 0x7f) {
                throw HttpError.bad("a control character in the request target");
            }
        }
        int minor;
        if (version.equals("HTTP/1.1")) {
            minor = 1;
        } else if (version.equals("HTTP/1.0")) {
            minor = 0;
        } else if (version.matches("HTTP/[0-9]\\.[0-9]")) {
            throw new HttpError(505, "only HTTP/1.1 and HTTP/1.0 are served", true);
        } else {
            throw HttpError.bad("the request line is not METHOD TARGET VERSION");
        }
        Map<String, List<String>> fields = fields(in, limits);
        List<String> host = fields.get("host");
        if (minor >= 1 && (host == null || host.size() != 1)) {
            // RFC 9112 section 3.2: exactly one Host field in an HTTP/1.1 request, or 400
            throw HttpError.bad("an HTTP/1.1 request names one Host");
        }
        return new Request(method, target, minor, fields);
    }

    private static Map<String, List<String>> fields(HttpInput in, Limits limits) throws IOException {
        HttpError tooBig = new HttpError(431, "the header fields are too large", true);
        Map<String, List<String>> fields = new LinkedHashMap<>();
        int budget = limits.headerBytes();
        int count = 0;
        while (true) {
            String line = in.line(budget, tooBig);
            budget -= line.length() + 2;
            if (line.isEmpty()) {
                return fields;
            }
            if (budget < 0 || ++count > limits.headerFields()) {
                throw tooBig;
            }
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                // RFC 9112 section 5.2: obsolete line folding is rejected
                throw HttpError.bad("a folded header line");
            }
            int colon = line.indexOf(':');
            // RFC 9112 section 5.1: no whitespace between the field name and the colon
            if (colon <= 0 || !isToken(line.substring(0, colon))) {
                throw HttpError.bad("a header line is not NAME: VALUE");
            }
            String value = line.substring(colon + 1).strip();
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == 0 || c == '\r' || c == '\n') {
                    throw HttpError.bad("a control character in a header value");
                }
            }
            fields.computeIfAbsent(line.substring(0, colon).toLowerCase(Locale.ROOT), k -> new ArrayList<>(1))
                    .add(value);
        }
    }

    /** RFC 9110 section 5.6.2: tchar. */
    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A field's value, the values of a repeated field joined with {@code ", "} (RFC 9110 section 5.3); null when absent. */
    String header(String name) {
        List<String> v = fields.get(name);
        return v == null ? null : String.join(", ", v);
    }

    /** Whether the field is present. */
    boolean has(String name) {
        return fields.containsKey(name);
    }

    /** Whether a comma-separated field lists {@code token} (case-insensitive), e.g. Connection: close. */
    boolean lists(String name, String token) {
        String v = header(name);
        if (v == null) {
            return false;
        }
        for (String part : v.split(",")) {
            if (part.strip().equalsIgnoreCase(token)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The body's length from Content-Length (RFC 9112 section 6.3): 0 without one; repeated
     * differing values or anything but digits are a 400; Transfer-Encoding is refused with 411,
     * as request bodies here are only PROPFIND's short XML.
     */
    long contentLength() throws HttpError {
        if (has("transfer-encoding")) {
            throw new HttpError(411, "send a Content-Length instead of Transfer-Encoding", true);
        }
        List<String> v = fields.get("content-length");
        if (v == null) {
            return 0;
        }
        String first = null;
        for (String s : String.join(",", v).split(",")) {
            s = s.strip();
            if (first != null && !first.equals(s)) {
                throw HttpError.bad("differing Content-Length values");
            }
            first = s;
        }
        if (first == null || first.isEmpty() || first.length() > 18 || !first.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw HttpError.bad("a Content-Length that is not a number");
        }
        return Long.parseLong(first);
    }

    /** Whether the client lets the connection stay open after this request (RFC 9112 section 9.3). */
    boolean keepAlive() {
        if (lists("connection", "close")) {
            return false;
        }
        return minor >= 1 || lists("connection", "keep-alive");
    }
}
