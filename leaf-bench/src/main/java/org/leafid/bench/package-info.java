/**
 * JMH benchmarks of leaf-core's hot paths, run by {@code jmh.sh} (never as tests): segment IDs
 * through the real double buffer and snowflake IDs built as the starter builds its generator,
 * against a shared {@code AtomicLong} as the floor. The store and the worker-id holder are
 * stand-ins that never run dry or expire and cost next to nothing, so the figures are the
 * generators' own, not a database's or a registry's. Nothing depends on this module; its
 * {@code http} sub-package is what {@code http-bench.sh} adds to a running server.
 */
package org.leafid.bench;
