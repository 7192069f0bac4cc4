package org.vectorjce.volumes.nbd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;

/**
 * The bytes of request buffers all connections of one server hold at once, bounded by
 * {@link VolumeServer.Builder#bufferBytes}: a request waits for room rather than allocating past
 * the budget, so a server's memory does not grow with its clients' requests. Requests are served
 * {@link #PIECE} bytes at a time, so one request holds at most that much.
 *
 * <p>Buffers of {@link #PIECE} bytes are pooled for the next request (a bulk copy's requests
 * then allocate and zero nothing); each was made while {@link #PIECE} permits were held, so the
 * pooled and the used ones together stay within the budget.
 */
final class BufferBudget {
    /**
     * The most bytes of one read or write held at once: a longer request is served a piece at a
     * time, so that four clients' 32 MiB requests fit a 64 MiB heap.
     */
    static final int PIECE = 1 << 20;
    /** Pieces from this size up use the pool's buffers. */
    private static final int POOLED_FROM = 64 << 10;

    private final int bytes;
    private final Semaphore permits;
    private final ConcurrentLinkedQueue<ByteBuffer> pool = new ConcurrentLinkedQueue<>();

    BufferBudget(int bytes) {
        this.bytes = bytes;
        this.permits = new Semaphore(bytes);
    }

    /** The budget: the most buffer bytes held at once. */
    int bytes() {
        return bytes;
    }

    /**
     * A buffer for a piece of {@code size} bytes (at most {@link #PIECE}), waiting for room: from
     * 64 KiB up a pooled {@link #PIECE}-byte one (its contents are a previous request's), below
     * that a new one of its size. {@link #give} returns it.
     *
     * @throws ClosedChannelException when the thread is interrupted while waiting (the server is closing)
     * @throws ProtocolException when {@code size} is over the whole budget
     */
    ByteBuffer take(int size) throws IOException {
        if (size < POOLED_FROM || PIECE > bytes) {
            reserve(size);
            return ByteBuffer.allocate(size);
        }
        reserve(PIECE);
        ByteBuffer b = pool.poll();
        return b != null ? b.clear() : ByteBuffer.allocate(PIECE);
    }

    /** Returns a buffer {@link #take} gave, and its room. */
    void give(ByteBuffer b) {
        if (b.capacity() == PIECE && PIECE <= bytes) {
            pool.offer(b);
        }
        permits.release(b.capacity());
    }

    /**
     * Waits for {@code size} bytes of room, for a buffer the caller makes; {@link #release} gives it back.
     *
     * @throws ClosedChannelException when the thread is interrupted while waiting (the server is closing)
     * @throws ProtocolException when {@code size} is over the whole budget
     */
    void reserve(int size) throws IOException {
        if (size > bytes) {
            throw new ProtocolException("a " + size + "-byte buffer is over the " + bytes + "-byte budget");
        }
        try {
            permits.acquire(size);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClosedChannelException();
        }
    }

    /** Gives back the room {@link #reserve} waited for. */
    void release(int size) {
        permits.release(size);
    }
}
