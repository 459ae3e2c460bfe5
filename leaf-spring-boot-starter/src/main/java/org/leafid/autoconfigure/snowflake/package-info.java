/**
 * Snowflake mode as beans ({@code leaf.snowflake.*}): this instance's address, the worker-id holder,
 * the generator, its meters and the {@code workerId} readiness indicator. The registry under the holder
 * comes from the auto-configuration of the mode in effect ({@code local}, {@code kubernetes},
 * {@code mysql}, {@code disposable}, {@code zk_normal}, {@code zk_recycle} or {@code redis}; the
 * ZooKeeper client exists only in the two ZooKeeper modes, and {@code redis} uses Spring Boot's Redis
 * client of {@code spring.data.redis.*}), or from the application, whose own {@code WorkerIdRegistry}
 * bean replaces them all.
 * {@link org.leafid.autoconfigure.mode.WorkerIdModeChoice} is the one place of the default rule
 * (no mode set: {@code zk_normal} when a ZooKeeper address is, as Meituan Leaf's unchanged
 * {@code leaf.properties} expects, else {@code local}), {@code @ConditionalOnWorkerIdMode} switches on
 * it, one start-up line says which worker id was taken in which mode and why, and a start stopped
 * because no worker id could be held ends with that reason rather than a stack trace.
 */
package org.leafid.autoconfigure.snowflake;

import org.leafid.autoconfigure.mode.ConditionalOnWorkerIdMode;
