package org.leafid.server.admin;

import org.leafid.core.LeafException;

/**
 * A tag or app to create would start below numbers this fleet reserved for it before (its row was
 * deleted, its high-water mark was kept): the detail says how to go on.
 */
final class BelowHighWaterException extends LeafException {

    BelowHighWaterException(String reason) {
        super(reason);
    }
}
