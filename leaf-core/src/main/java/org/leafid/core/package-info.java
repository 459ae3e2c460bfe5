/**
 * What both generators share, with no framework: leaf-core depends on SLF4J alone, so that it can
 * be embedded anywhere and tested without a container; MyBatis is in leaf-jdbc, Curator in
 * leaf-zookeeper, Spring and Micrometer in the starter and the server. Here are
 * {@link org.leafid.core.IdGenerator}, the {@link org.leafid.core.Sleeper} injected next to the
 * clock so that tests move a fake clock instead of sleeping, the daemon thread factory and the
 * duration format every module's threads and messages use, and {@link org.leafid.core.LeafException},
 * the root of one subclass per condition a caller must answer differently. Each mode keeps its own
 * beside it (unknown or exhausted tag, store failure and next block late in {@code segment}; clock
 * moved back and timestamp overflow in {@code snowflake}; no worker id in {@code worker}; the shard
 * mode's in {@code shard}); only the interrupted wait, which every mode can meet, is here. The
 * subclasses carry the condition's data, so the server maps them to problem+json answers without
 * parsing messages.
 */
package org.leafid.core;
