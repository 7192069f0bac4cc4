package org.vectorjce.volumes.nbd;

import java.io.IOException;

/**
 * A client broke a rule of the protocol that leaves the server no reply to give (a request
 * without its magic, "Request message" of {@code doc/proto.md}): its connection is closed, the
 * other connections go on.
 */
final class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    ProtocolException(String message) {
        super(message);
    }
}
