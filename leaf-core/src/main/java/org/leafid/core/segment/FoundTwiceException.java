package org.leafid.core.segment;

import org.leafid.core.LeafException;

/**
 * The fleet's witness saw two databases answer for one row at once: a block reserved after the row
 * was carried past what the fleet reserved overlaps a block of another server (a clone, or an old
 * primary still taking writes after a failover, served beside the other). Nothing of the key is served
 * until an operator stops one of them and releases the key ({@code POST /api/admin/witness/release}).
 */
public final class FoundTwiceException extends LeafException {

    public FoundTwiceException(String table, String key, String where) {
        super(table + " '" + key + "': two databases answer for this row at once (a copy served beside the"
                + " original, or an old primary still taking reservations after a failover): the fleet's witness"
                + " (" + where + ") saw a block reserved after the row was carried past every other server's"
                + " overlap one of them. Nothing of it is served until an operator stops the database that is not"
                + " this fleet's store and releases the key: POST /api/admin/witness/release {\"table\":\"" + table
                + "\",\"key\":\"" + key + "\"}");
    }
}
