/**
 * Snowflake mode. {@link org.leafid.core.snowflake.SnowflakeLayout} holds all the bit arithmetic
 * (41 bits of milliseconds since twepoch, 10 of worker id, 12 of sequence);
 * {@link org.leafid.core.snowflake.SnowflakeGenerator} issues IDs lock-free while its holder's
 * {@link org.leafid.core.snowflake.WorkerLease} covers the clock.
 * {@link org.leafid.core.snowflake.ReservingWorkerIdHolder} is the one holder of every worker-id
 * mode: it takes the id from a {@link org.leafid.core.snowflake.WorkerIdRegistry} (the mechanism:
 * configuration in {@code org.leafid.core.worker}, a ZooKeeper node in leaf-zookeeper, a database
 * row in leaf-jdbc) and keeps recording a reserved-until time ahead of the clock through a
 * {@link org.leafid.core.snowflake.ReservationSink}, so that a restart, even with the clock stepped
 * back, never reissues a timestamp.
 */
package org.leafid.core.snowflake;
