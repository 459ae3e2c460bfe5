package org.leafid.client;

/**
 * IDs of one kind (a segment tag, snowflake, a shard-mode app's shard) served from the client's
 * buffer. Thread-safe; {@link #nextId()} takes no lock and makes no call while the buffer lasts.
 */
public interface IdSource {

    /**
     * The next ID.
     *
     * @throws LeafUnavailableException when the buffer is spent and no server gave a batch in time
     * @throws LeafRequestException when a server refused the request (unknown tag, bad input, limit)
     */
    long nextId();

    /** {@code n} IDs (1 ≤ n), in the order they were issued; the same failures as {@link #nextId()}. */
    long[] nextIds(int n);

    /** How many IDs are in the buffer now, ready to be served without a call. */
    int buffered();
}
