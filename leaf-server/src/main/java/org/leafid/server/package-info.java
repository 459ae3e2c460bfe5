/**
 * The Leaf ID server: a Spring Boot application whose generators, worker-id holder and database come
 * from leaf-spring-boot-starter's auto-configurations, configured by the same {@code leaf.*} keys, so
 * this module holds only what a deployed server adds on top. {@code web} is the HTTP API
 * (Leaf-compatible get endpoints, decoding, the segment cache view, the status page) with a
 * problem+json answer for every failure; {@code admin} is the {@code leaf_alloc} rows over HTTP behind
 * a token; {@code metrics} counts and times the answers, next to the starter's per-mode meters.
 */
package org.leafid.server;
