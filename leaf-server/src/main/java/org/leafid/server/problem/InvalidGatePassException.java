package org.leafid.server.problem;

import org.leafid.core.LeafException;
import org.leafid.core.shard.ShardId;

/** The {@code gatePass} parameter is empty, too long, or given more than once. */
public final class InvalidGatePassException extends LeafException {

    public InvalidGatePassException(String reason) {
        super("gatePass " + reason + "; it must be 1 to " + ShardId.MAX_GATE_PASS_LENGTH
                + " characters (the user's name, phone or e-mail), given once, or left out for round-robin");
    }
}
