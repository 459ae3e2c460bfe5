/**
 * The ID endpoints: Leaf-compatible {@code /api/segment/get/{tag}} and {@code /api/snowflake/get/{key}},
 * and {@code /api/shard/get/{appId}} (plain-text IDs, {@code ?count=N} batches), all three through one
 * {@link org.leafid.server.id.IdGetCall}, which ordinary GETs reach through a Tomcat valve ahead of
 * Spring MVC ({@link org.leafid.server.id.IdFastPathValve}) and the rest through the controllers; the
 * decoding of an ID, the segment cache view and the shard app list. Failures are thrown for
 * {@code org.leafid.server.problem} to answer; a switched-off mode's paths answer 404 saying so.
 */
package org.leafid.server.id;
