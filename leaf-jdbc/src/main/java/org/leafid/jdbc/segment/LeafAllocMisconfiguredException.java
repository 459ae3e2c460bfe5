package org.leafid.jdbc.segment;

import org.leafid.core.LeafException;
import org.leafid.jdbc.SqlFailures;

/**
 * The database of {@code leaf_alloc} answered at start, and its answer says the configuration is
 * wrong (user or password refused, unknown database, no {@code leaf_alloc} table): waiting will
 * not heal it, so the start stops, naming the key to fix. An unreachable database does not stop
 * the start (see {@code SegmentTagRefresher} of the starter).
 */
public final class LeafAllocMisconfiguredException extends LeafException {

    private final SqlFailures.Kind kind;

    public LeafAllocMisconfiguredException(String message, SqlFailures.Kind kind, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public SqlFailures.Kind kind() {
        return kind;
    }

    /** What to change, for Spring Boot's start-up failure report. */
    public String action() {
        return switch (kind) {
            case ACCESS_DENIED -> "Set leaf.jdbc.username and leaf.jdbc.password to a user the database accepts, "
                    + "with rights on the database named in leaf.jdbc.url.";
            case UNKNOWN_DATABASE -> "Correct the database name in leaf.jdbc.url, or create that database "
                    + "(CREATE DATABASE ...) and run " + LeafAllocRepository.TABLE_SCRIPT + " in it.";
            case MISSING_TABLE -> "Create the table: run " + LeafAllocRepository.TABLE_SCRIPT
                    + " in the database of leaf.jdbc.url (or point leaf.jdbc.url at the database that has it).";
            default -> "Check leaf.jdbc.url, leaf.jdbc.username and leaf.jdbc.password.";
        };
    }
}
