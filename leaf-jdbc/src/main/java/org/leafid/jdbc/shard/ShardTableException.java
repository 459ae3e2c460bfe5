package org.leafid.jdbc.shard;

import org.leafid.core.LeafException;

/**
 * A shard table could not be read or changed for the admin side (apps view, app creation, the
 * opaque key's fingerprint): the database failed or is unreachable. The message names the
 * database, what it answered and what to change.
 */
public final class ShardTableException extends LeafException {

    ShardTableException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
