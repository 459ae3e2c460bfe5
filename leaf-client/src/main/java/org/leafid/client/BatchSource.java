package org.leafid.client;

/** Where a buffer's batches come from: the servers over HTTP, or an in-memory source in tests. */
interface BatchSource {

    /**
     * Exactly {@code count} IDs issued by a server for {@code path}, in an answer that passed {@code check}.
     *
     * @param path the path and query up to the count, ending in {@code ?} or {@code &}
     * @param check what the buffer requires of an answer; an answer that fails it is a server failure
     * @throws LeafRequestException when a server refused the request itself (not retried)
     * @throws ServersUnavailableException when no server gave the batch
     */
    AnswerIds fetch(String path, int count, AnswerCheck check) throws ServersUnavailableException;

    /** Where the batches come from, for a message that says whom to check: the servers' addresses. */
    default String servers() {
        return "its source";
    }
}
