package org.vectorjce.webdav;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Who may read: either a secret token as the first path segment of every URL, or HTTP Basic
 * credentials (RFC 7617). Only SHA-256 digests of the secrets are kept, and they are compared with
 * {@link MessageDigest#isEqual}, whose time does not depend on where the bytes differ.
 *
 * <p>A request without the right token is answered 404, exactly as a path that does not exist, so
 * that a stranger cannot tell a wrong token from a missing file, and the answer names no file.
 * A request without the right credentials is answered 401 with a {@code WWW-Authenticate} challenge.
 */
final class Access {
    static final String REALM = "files";
    private final String token;
    /** The SHA-256 of the token, or of the Basic credentials' {@code user:password} in UTF-8. */
    private final byte[] digest;

    private Access(String token, byte[] digest) {
        this.token = token;
        this.digest = digest;
    }

    static Access token(String token) {
        return new Access(token, sha256(token.getBytes(StandardCharsets.UTF_8)));
    }

    /** Basic credentials; the password's intermediate bytes are wiped here, the caller wipes its array. */
    static Access basic(String user, char[] password) {
        char[] both = new char[user.length() + 1 + password.length];
        user.getChars(0, user.length(), both, 0);
        both[user.length()] = ':';
        System.arraycopy(password, 0, both, user.length() + 1, password.length);
        ByteBuffer b = StandardCharsets.UTF_8.encode(CharBuffer.wrap(both));
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        try {
            return new Access(null, sha256(bytes));
        } finally {
            Arrays.fill(both, '\0');
            Arrays.fill(bytes, (byte) 0);
            if (b.hasArray()) {
                Arrays.fill(b.array(), (byte) 0);
            }
        }
    }

    /** Whether the server asks for Basic credentials rather than a token. */
    boolean basic() {
        return token == null;
    }

    /** The path every URL starts with: {@code /TOKEN/} or {@code /}. */
    String prefix() {
        return token == null ? "/" : "/" + DavPath.encode(token) + "/";
    }

    /**
     * Checks a request's right to read.
     *
     * @return how many leading path segments were the token (0 or 1)
     * @throws HttpError 404 for a missing or wrong token, 401 for missing or wrong credentials
     */
    int check(Request request, DavPath path) throws HttpError {
        if (token != null) {
            if (path.segments.isEmpty() || !MessageDigest.isEqual(digest,
                    sha256(path.segments.get(0).getBytes(StandardCharsets.UTF_8)))) {
                throw new HttpError(404, "not found", false);
            }
            return 1;
        }
        String auth = request.header("authorization");
        if (auth != null && auth.length() > 6 && auth.regionMatches(true, 0, "Basic ", 0, 6)) {
            byte[] given;
            try {
                given = Base64.getDecoder().decode(auth.substring(6).strip());
            } catch (IllegalArgumentException e) {
                throw unauthorized();
            }
            boolean ok = MessageDigest.isEqual(digest, sha256(given));
            Arrays.fill(given, (byte) 0);
            if (ok) {
                return 0;
            }
        }
        throw unauthorized();
    }

    private static HttpError unauthorized() {
        return new HttpError(401, "credentials required", false);
    }

    /** The challenge sent with a 401 (RFC 7617 section 2). */
    static String challenge() {
        return "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"";
    }

    /** Forgets the secrets' digests. */
    void wipe() {
        Arrays.fill(digest, (byte) 0);
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    @Override
    public String toString() {
        return token == null ? "Access[basic]" : "Access[token]";
    }
}
