/**
 * The Leaf ID server: a Spring Boot application whose generators, worker-id holder and database come
 * from leaf-spring-boot-starter's auto-configurations, configured by the same {@code leaf.*} keys, so
 * this module holds only what a deployed server adds on top. {@code id} is the ID endpoints
 * (Leaf-compatible gets, decoding, the segment cache view, the shard app list); {@code problem} the
 * problem types and the problem+json answer of every failure; {@code status} the status page;
 * {@code admin} the {@code leaf_alloc} and {@code id_alloc} rows over HTTP behind a token; {@code metrics}
 * counts and times the answers, next to the starter's per-mode meters; {@code openapi} describes the API.
 * {@code disclosure} says what an answer may show to whom; it depends on no other package here,
 * {@code problem} on {@code disclosure} only, and no package depends on itself through others
 * ({@code PackageCyclesTest}).
 */
package org.leafid.server;
