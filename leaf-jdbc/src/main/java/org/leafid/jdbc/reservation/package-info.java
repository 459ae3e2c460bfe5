/**
 * The one guarded reservation of a block from a table of {@code max_id} rows, whichever table it
 * is ({@code leaf_alloc}'s tags, {@code id_alloc}'s apps and shards): {@link
 * org.leafid.jdbc.reservation.GuardedReservation} runs the chain — retries, the store's identity
 * ({@link org.leafid.jdbc.reservation.StoreIdentityGuard}: the database answering is the one this
 * fleet recorded, not a failover target, a restore or a copy), the one-statement or transaction
 * path, the high-water check ({@link org.leafid.jdbc.reservation.HighWaterMarks}: a row that went
 * back is moved past the highest {@code max_id} this fleet reserved) — and a table contributes only
 * its statements ({@link org.leafid.jdbc.reservation.ReservationSteps}).
 */
package org.leafid.jdbc.reservation;
