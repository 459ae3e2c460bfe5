/**
 * Leaf's Micrometer meters: IDs issued, segment remaining, step and block loads per tag, the
 * snowflake worker id, clock-backward count and heartbeat age, get-endpoint latency, and answers
 * by status class, counted by a Tomcat valve so that refusals made before Spring sees a request
 * count too. Series exist at 0 before their first event (per-tag ones from when the tag appears),
 * so a dashboard panel shows 0, not "no data". Segment IDs issued are read from the generators'
 * blocks at scrape time, so counting them costs the segment hot path nothing.
 */
package org.leafid.server.metrics;
