/**
 * Snowflake mode. {@link org.leafid.core.snowflake.SnowflakeLayout} holds all the bit arithmetic
 * (41 bits of milliseconds since twepoch, 10 of worker id, 12 of sequence);
 * {@link org.leafid.core.snowflake.SnowflakeGenerator} issues IDs lock-free while its holder's
 * {@link org.leafid.core.worker.WorkerLease} covers the clock, borrowing ahead of the clock or not
 * as its {@link org.leafid.core.snowflake.Borrowing} says. Where the worker id and its lease come
 * from is {@code org.leafid.core.worker}'s business; this package depends on it, never the reverse.
 * The clock and layout refusals ({@link org.leafid.core.snowflake.ClockMovedBackwardsException},
 * {@link org.leafid.core.snowflake.TimestampOverflowException}) are here beside the generator.
 */
package org.leafid.core.snowflake;
