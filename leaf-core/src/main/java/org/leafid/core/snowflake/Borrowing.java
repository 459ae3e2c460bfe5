package org.leafid.core.snowflake;

/**
 * What {@link SnowflakeGenerator} does when every sequence of the current time unit is issued.
 * One choice of three: it was two booleans, one of which meant nothing without the other.
 */
public enum Borrowing {

    /** Wait for the clock to reach the next unit, as Leaf does. */
    NONE,

    /**
     * Issue from the following units at once, ahead of the clock, but never past the worker id's
     * time reservation: a later holder of the worker id starts after it.
     */
    WITHIN_RESERVATION,

    /**
     * Issue from the following units with no bound, as uid-generator's cached generator does: only
     * for a worker id no later process can hold ({@code disposable} mode), where no reservation
     * protects anyone.
     */
    UNBOUNDED
}
