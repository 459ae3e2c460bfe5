package org.leafid.server.id;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code /api/shard/decode/{id}}: the parts of a shard-mode ID, the id itself as a string (IDs
 * pass 2^53). With an opaque key the index is the one the ID was issued from, and only an admin
 * gets it: otherwise {@code index} is left out and {@code indexHidden} says why.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShardDecodedId(String id, int appId, int shardId, Long index, String indexHidden) {}
