package org.leafid.client;

import java.time.Duration;

/**
 * A server as the client sees it, for health checks and status pages: up, or down for a while
 * after a failure (the client asks no one to find out).
 *
 * @param url the base URL as configured
 * @param up false while the server is backing off after a failure
 * @param downFor how long it is still backing off; zero when up
 * @param lastFailure what went wrong last, or null after a success
 */
public record ServerState(String url, boolean up, Duration downFor, String lastFailure) {}
