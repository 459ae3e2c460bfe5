/**
 * The HTTP API: Leaf-compatible {@code /api/segment/get/{tag}} and {@code /api/snowflake/get/{key}}
 * (plain-text IDs, {@code ?count=N} batches), snowflake decoding, the segment cache view and the
 * status page at {@code /}. Every failure, including Tomcat's own refusals and its error page, is
 * answered as RFC 9457 problem+json with a stable {@code urn:leaf:problem:*} type; refusals are
 * logged at most once per interval per kind. The {@code bench} profile adds the no-op endpoint
 * that {@code leaf-bench/http-bench.sh} measures the web server by.
 */
package org.leafid.server.web;
