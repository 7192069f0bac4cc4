package org.vectorjce.fs.ntfs;

import org.vectorjce.fs.CorruptFileSystemException;

/**
 * LZNT1, the compression of NTFS compressed files: a compression unit's bytes are a series of
 * chunks, each a 16-bit header (low 12 bits: the chunk's data bytes minus 1; bits 12-14: the
 * signature 3; bit 15: compressed)
 * and its data, standing for 4096 bytes of output. A compressed chunk is groups of a flag byte and
 * eight tokens: a literal byte for a 0 bit, else a 16-bit back-reference whose split between
 * offset and length depends on how far into the chunk's output it is (12 length bits at the
 * start, one fewer each time the position passes a power of two from 16). A 0 header ends the unit
 * (keramics {@code docs/formats/src/lznt1.md}; MS-XCA 2.5). Output never passes the buffer given.
 */
final class Lznt1 {
    static final int CHUNK = 4096;

    private Lznt1() {
    }

    /**
     * Decompresses {@code in[0, inLen)} into {@code out}, which the caller has zeroed; a chunk that
     * gives fewer than 4096 bytes leaves the rest of its 4096 zeros.
     *
     * @param at the unit's device offset, for messages
     * @return the bytes of {@code out} written to (the last chunk's end)
     */
    static int decompress(byte[] in, int inLen, byte[] out, long at) throws CorruptFileSystemException {
        int ip = 0;
        int op = 0;
        while (ip + 2 <= inLen && op < out.length) {
            int h = Le.u16(in, ip);
            if (h == 0) {
                break;
            }
            if ((h & 0x7000) != 0x3000) {
                throw new CorruptFileSystemException(String.format("NTFS: LZNT1 chunk header 0x%04x lacks the signature 0x3000",
                        h), at + ip);
            }
            ip += 2;
            int size = (h & 0xFFF) + 1;
            if (size > inLen - ip) {
                throw new CorruptFileSystemException("NTFS: LZNT1 chunk of " + size + " bytes passes the unit's "
                        + inLen + " bytes", at + ip);
            }
            int chunkStart = op;
            int chunkEnd = Math.min(op + CHUNK, out.length);
            int end = ip + size;
            if ((h & 0x8000) == 0) {
                int n = Math.min(size, chunkEnd - op);
                System.arraycopy(in, ip, out, op, n);
            } else {
                chunk(in, ip, end, out, chunkStart, chunkEnd, at);
            }
            ip = end;
            op = chunkEnd;
        }
        return op;
    }

    private static void chunk(byte[] in, int ip, int end, byte[] out, int start, int limit, long at)
            throws CorruptFileSystemException {
        int op = start;
        while (ip < end && op < limit) {
            int flags = in[ip++] & 0xff;
            for (int bit = 0; bit < 8 && ip < end && op < limit; bit++, flags >>>= 1) {
                if ((flags & 1) == 0) {
                    out[op++] = in[ip++];
                    continue;
                }
                if (ip + 2 > end) {
                    throw new CorruptFileSystemException("NTFS: LZNT1 back-reference cut off by the chunk's end", at + ip);
                }
                int t = Le.u16(in, ip);
                ip += 2;
                int pos = op - start;
                int lg = 0;
                for (int i = pos - 1; i >= 0x10; i >>= 1) {
                    lg++;
                }
                int offset = (t >>> (12 - lg)) + 1;
                int length = (t & (0xFFF >>> lg)) + 3;
                if (offset > pos) {
                    throw new CorruptFileSystemException("NTFS: LZNT1 back-reference " + offset
                            + " bytes before the chunk's byte " + pos, at + ip - 2);
                }
                for (int k = 0; k < length && op < limit; k++, op++) {
                    out[op] = out[op - offset];
                }
            }
        }
    }
}
