package org.leafid.client;

/** IDs of one tag, of snowflake mode, or of one shard-mode app without a gate pass. */
public interface IdSource {

    /**
     * The next ID, from the local buffer while it lasts (no lock, no call).
     *
     * @throws LeafRequestException when a server refused the request (4xx)
     * @throws LeafUnavailableException when no server answered within the client's bound
     */
    long nextId();

    /** {@code count} IDs, in the order they were issued. */
    long[] nextIds(int count);
}
