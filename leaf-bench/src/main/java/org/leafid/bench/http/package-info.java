/**
 * What {@code http-bench.sh} adds to the server it measures: a no-op endpoint that answers the way the
 * single-ID endpoints do but issues nothing, so its requests per second are the cost of the web stack
 * alone, the ceiling the real endpoints are read against. Not in the server jar, and not a server
 * profile: the script puts this module's classes on the started server's class path and names the
 * endpoint as an extra source, so a deployed server never has it.
 */
package org.leafid.bench.http;
