/**
 * What a request can be refused for and how: the one list of problem types
 * ({@link org.leafid.server.problem.ProblemType}), the request checks and their exceptions, and the
 * handlers that answer every failure, Tomcat's own refusals and its error page among them, as RFC 9457
 * problem+json with a stable {@code urn:leaf:problem:*} type. Refusals are logged at most once per
 * interval per kind ({@link org.leafid.server.problem.RefusalLog}). Depends on no other package of the
 * server but {@code disclosure} (what a detail may show to whom): the endpoints and the admin API use it,
 * never the reverse.
 */
package org.leafid.server.problem;
