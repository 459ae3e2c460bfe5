package org.leafid.server.id;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.http.*}: how the server answers HTTP. The record makes the key known (its metadata
 * feeds the unknown-key check) and checks its type at start; {@link IdGetCallsConfiguration} reads
 * it through its condition.
 *
 * @param fastPath answer {@code GET /api/segment/get/{tag}}, {@code GET /api/snowflake/get/{key}},
 *     {@code GET /api/shard/get/{appId}} and {@code GET /api/format/get/{name}} first in Tomcat's pipeline, ahead of the servlet filters and Spring MVC
 *     ({@link IdFastPathValve}); {@code false} sends them through Spring MVC like every other path. The answers are the same either way; the
 *     fast path answered 0.988 of a bare servlet's requests per second where Spring MVC answered 0.558 (two runs of
 *     {@code leaf-bench/http-bench.sh}, docs/benchmark-history.md).
 * @param apiDocs publish the OpenAPI description of the HTTP API at {@code /v3/api-docs} (JSON); {@code false}
 *     makes it an unknown path. Off by default: a server that issues IDs does not need it.
 */
@ConfigurationProperties("leaf.http")
public record HttpProperties(@DefaultValue("true") boolean fastPath, @DefaultValue("false") boolean apiDocs) {}
