package org.leafid.server.problem;

import org.leafid.core.LeafException;
import org.leafid.core.shard.ShardId;

/** The app id in a shard-mode path is not a number from 0 to 255. */
public final class InvalidAppIdException extends LeafException {

    public InvalidAppIdException(String given) {
        super("appId must be a whole number from 0 to " + ShardId.MAX_APP_ID + " (8 bits of the ID); got '"
                + (given.length() <= 32 ? given : given.substring(0, 32) + "…") + "'");
    }
}
