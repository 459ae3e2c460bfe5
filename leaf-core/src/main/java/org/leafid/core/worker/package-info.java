/**
 * The worker id of snowflake mode and its time reservation, every mode's. The one holder is
 * {@link org.leafid.core.worker.ReservingWorkerIdHolder}: it takes the id from a
 * {@link org.leafid.core.worker.WorkerIdRegistry} (the mode: configuration or a pod's ordinal here, in
 * {@code local} and {@code kubernetes}; a ZooKeeper node in leaf-zookeeper; a database row in leaf-jdbc;
 * a lease in leaf-redis), hands the generator a
 * {@link org.leafid.core.worker.WorkerLease} and keeps recording a reserved-until time ahead of the clock
 * through a {@link org.leafid.core.worker.ReservationSink}, so that a restart, even with the clock stepped
 * back, never reissues a timestamp. When it cannot, IDs stop with
 * {@link org.leafid.core.worker.WorkerIdUnavailableException}. Nothing here knows the snowflake layout.
 *
 * <p>What every worker-id mode shares, and the {@code local} mode, which needs nothing else. Shared:
 * the {@code ip:port} that names an instance ({@link org.leafid.core.worker.InstanceAddress}), its
 * cache directory {@code {data-dir}/{leaf.name}/{port}/} ({@link org.leafid.core.worker.WorkerCacheFiles})
 * and the reservation file kept there ({@link org.leafid.core.worker.ReservationFile}, written
 * atomically, so a crash leaves the old or the new content, never half of one). The registries of
 * leaf-jdbc and leaf-zookeeper build on these, so that a restart on the same machine honours the last
 * reservation whatever their backend kept; they sit in core because they need only the
 * file system, and every registry module depends on core anyway.
 *
 * <p>The two registries that keep a reservation both locally and remotely ({@code zk_normal} and
 * {@code mysql}) share one rule for each side of it: at start the later of the cached and the
 * registry's reservation binds ({@link org.leafid.core.worker.StartReservation}), and while running
 * the cache file is written first and the registry after it, both before the reservation is used, an
 * outage logged once ({@link org.leafid.core.worker.WriteThroughSink}, with the registry's side behind
 * {@link org.leafid.core.worker.RegistryWriter}). In every mode a lease counts only for
 * {@code 2 x report-interval} on the monotonic clock from the start of its last confirmed recording
 * ({@link org.leafid.core.worker.ReservingWorkerIdHolder}).
 *
 * <p>In {@code local} mode ({@link org.leafid.core.worker.local.LocalWorkerIdRegistry}) the worker id comes
 * from configuration (Leaf's {@code workIdMap} by {@code ip:port}, else
 * {@code leaf.snowflake.local.worker-id}; see {@link org.leafid.core.worker.local.LocalWorkerIds}) and the
 * reservation is kept in the instance's {@code workId.json}. No registry is shared between instances,
 * so keeping their ids distinct is the operator's job. The {@code kubernetes} mode
 * ({@link org.leafid.core.worker.kubernetes.KubernetesWorkerIdRegistry}) holds the one id the starter
 * reads from the pod's StatefulSet ordinal the same way; there Kubernetes keeps the ids distinct.
 */
package org.leafid.core.worker;
