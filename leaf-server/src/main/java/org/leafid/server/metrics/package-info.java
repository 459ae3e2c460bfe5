/**
 * The server's own meters, those of its HTTP side: {@code leaf_id_requests_seconds}, the latency of
 * the get endpoints, and {@code leaf_http_responses_total}, the answers by status class, counted by a
 * Tomcat valve so that refusals made before Spring sees a request count too, and all four classes
 * at 0 from the start, so a dashboard panel shows 0, not "no data". The meters of the modes (IDs
 * issued, segment remaining, step and block loads per tag, the worker id, clock-backward count and
 * heartbeat age) are made by the starter with each mode's beans, so an application using the starter
 * without this server has them too.
 */
package org.leafid.server.metrics;
