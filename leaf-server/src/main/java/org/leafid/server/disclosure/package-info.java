/**
 * What an answer may show, and to whom ({@link org.leafid.server.disclosure.Disclosure}): secrets to
 * no one, and hosts, urls, database names and key fingerprints only to a caller with the admin token.
 * Problem details, readiness ({@link org.leafid.server.disclosure.HealthDisclosureFilter}), the status
 * page and the segment cache view pass their texts through it. Depends on no other package of the server.
 */
package org.leafid.server.disclosure;
