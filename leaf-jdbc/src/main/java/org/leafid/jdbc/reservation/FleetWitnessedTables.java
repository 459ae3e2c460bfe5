package org.leafid.jdbc.reservation;

/**
 * Which tables' reservations every server claims in a fleet-wide witness first ({@code leaf.witness.fleet}):
 * after the database's identity changed, their rows are left where they are, each carried to the
 * witness's exact mark at its next reservation, so that no narrow format or app is exhausted by a blind
 * skip; the others' rows move forward by it.
 *
 * @param leafAlloc segment tags and formats (segment mode on with a fleet witness)
 * @param idAlloc shard apps (shard mode on with a fleet witness)
 */
public record FleetWitnessedTables(boolean leafAlloc, boolean idAlloc) {

    /** No fleet witness: every row moves. */
    public static final FleetWitnessedTables NONE = new FleetWitnessedTables(false, false);
}
