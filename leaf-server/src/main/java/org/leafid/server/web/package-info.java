/**
 * The HTTP API: Leaf-compatible {@code /api/segment/get/{tag}} and {@code /api/snowflake/get/{key}}
 * (plain-text IDs, {@code ?count=N} batches; ordinary GETs answered by a Tomcat valve ahead of
 * Spring MVC, with the controllers' own code and problem handling), snowflake decoding, the segment cache
 * view and the status page at {@code /}. Every failure, including Tomcat's own refusals and its error page, is
 * answered as RFC 9457 problem+json with a stable {@code urn:leaf:problem:*} type; refusals are
 * logged at most once per interval per kind, and a switched-off mode's paths answer 404 saying so.
 * The status page reads only what the generators already expose and the meters that exist anyway,
 * so it takes nothing from the ID hot path.
 */
package org.leafid.server.web;
