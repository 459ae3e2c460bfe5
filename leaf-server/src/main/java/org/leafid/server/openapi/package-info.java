/**
 * The server's OpenAPI 3 description ({@code /v3/api-docs}, with {@code leaf.http.api-docs} on):
 * every controller's paths, with what the get endpoints answer and the problem+json types of the
 * refusals, so that clients in other languages can be generated from it.
 */
package org.leafid.server.openapi;
