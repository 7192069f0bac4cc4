package org.vectorjce.volumes.nbd;

/**
 * The numbers of the NBD protocol this server speaks, named as {@code doc/proto.md} of the
 * NetworkBlockDevice/nbd repository names them; each group cites the section that defines it.
 */
final class Nbd {
    // "Newstyle negotiation" and "Fixed newstyle negotiation": the magics
    static final long NBDMAGIC = 0x4e42444d41474943L, IHAVEOPT = 0x49484156454f5054L, OPT_REPLY = 0x3e889045565a9L;
    // "Handshake flags" and "Client flags"
    static final int FLAG_FIXED_NEWSTYLE = 1, FLAG_NO_ZEROES = 2;
    // "Option types"
    static final int OPT_EXPORT_NAME = 1, OPT_ABORT = 2, OPT_LIST = 3, OPT_STARTTLS = 5, OPT_INFO = 6, OPT_GO = 7,
            OPT_STRUCTURED_REPLY = 8;
    // "Option reply types"
    static final int REP_ACK = 1, REP_SERVER = 2, REP_INFO = 3;
    static final int REP_ERR_UNSUP = 0x80000001, REP_ERR_INVALID = 0x80000003, REP_ERR_TLS_REQD = 0x80000005,
            REP_ERR_UNKNOWN = 0x80000006, REP_ERR_TOO_BIG = 0x80000009;
    // NBD_OPT_INFO's information types ("Option types", NBD_OPT_INFO and NBD_OPT_GO)
    static final int INFO_EXPORT = 0, INFO_NAME = 1, INFO_DESCRIPTION = 2, INFO_BLOCK_SIZE = 3;
    // "Transmission flags"
    static final int TF_HAS_FLAGS = 1, TF_READ_ONLY = 2, TF_SEND_FLUSH = 4, TF_SEND_FUA = 8, TF_SEND_TRIM = 32,
            TF_SEND_WRITE_ZEROES = 64, TF_CAN_MULTI_CONN = 256;
    // "Request message", "Simple reply message", "Structured reply chunk message": the magics
    static final int REQUEST_MAGIC = 0x25609513, SIMPLE_REPLY = 0x67446698, STRUCTURED_REPLY = 0x668e33ef;
    /** "Request message": magic, flags, type, cookie, offset, length. */
    static final int REQUEST_BYTES = 28;
    // "Request types"
    static final int CMD_READ = 0, CMD_WRITE = 1, CMD_DISC = 2, CMD_FLUSH = 3, CMD_TRIM = 4, CMD_WRITE_ZEROES = 6;
    // "Command flags"
    static final int CMD_FLAG_FUA = 1, CMD_FLAG_NO_HOLE = 2, CMD_FLAG_DF = 4;
    // "Structured reply flags" and "Structured reply types"
    static final int REPLY_FLAG_DONE = 1, REPLY_TYPE_OFFSET_DATA = 1, REPLY_TYPE_ERROR = 0x8001;
    // "Error values"
    static final int EPERM = 1, EIO = 5, EINVAL = 22, ENOSPC = 28, EOVERFLOW = 75;

    private Nbd() {
    }
}
