package org.leafid.autoconfigure.shard;

import org.leafid.core.shard.OpaquePermutation;

/** The opaque permutation of {@code leaf.shard.opaque-key}, or none ({@code permutation} null). */
public record ShardOpacity(OpaquePermutation permutation) {

    public boolean opaque() {
        return permutation != null;
    }
}
