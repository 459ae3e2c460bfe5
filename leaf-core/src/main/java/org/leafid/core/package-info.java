/**
 * What both generators share, with no framework (leaf-core depends on SLF4J alone; Spring,
 * MyBatis, Curator and Micrometer stay in leaf-server): {@link org.leafid.core.IdGenerator}, the
 * {@link org.leafid.core.Sleeper} injected next to the clock so that tests move a fake clock
 * instead of sleeping, and {@link org.leafid.core.LeafException} with one subclass per condition
 * a caller must answer differently (unknown or exhausted tag, store failure, next block late,
 * clock moved back, timestamp overflow, no worker id, interrupted wait). The subclasses carry
 * the condition's data, so the server maps them to problem+json answers without parsing messages.
 */
package org.leafid.core;
