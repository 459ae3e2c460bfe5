/**
 * What both generators share, with no framework: leaf-core depends on SLF4J alone, so that it can
 * be embedded anywhere and tested without a container; MyBatis is in leaf-jdbc, Curator in
 * leaf-zookeeper, Spring and Micrometer in the starter and the server. Here are
 * {@link org.leafid.core.IdGenerator}, the {@link org.leafid.core.Sleeper} injected next to the
 * clock so that tests move a fake clock instead of sleeping, the daemon thread factory and the
 * duration format every module's threads and messages use, and {@link org.leafid.core.LeafException}
 * with one subclass per condition a caller must answer differently (unknown or exhausted tag,
 * store failure, next block late, clock moved back, timestamp overflow, no worker id, interrupted
 * wait). The subclasses carry the condition's data, so the server maps them to problem+json answers
 * without parsing messages.
 */
package org.leafid.core;
