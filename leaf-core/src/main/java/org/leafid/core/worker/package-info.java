/**
 * The {@code local} worker-id mode: the worker id comes from configuration (Leaf's
 * {@code workIdMap} by {@code ip:port}, else {@code leaf.snowflake.local.worker-id}), and the
 * reservation is kept in the instance's {@code workId.json}; no registry is shared between
 * instances, so keeping ids distinct is the operator's job.
 */
package org.leafid.server.worker.local;
