package org.leafid.core.shard;

import org.leafid.core.LeafException;

/** {@code id_alloc} could not be read or advanced: the database failed or is unreachable. */
public final class ShardStoreException extends LeafException {

    public ShardStoreException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
