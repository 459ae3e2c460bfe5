package org.leafid.server.id;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.http.*}: how the server answers HTTP. The record makes the key known (its metadata
 * feeds the unknown-key check) and checks its type at start; {@link IdGetCallsConfiguration} reads
 * it through its condition. The fast path answers {@code GET /api/shard/get/{appId}} too; the key's
 * description below, which docs/configuration.md copies, still names the two older gets only.
 *
 * @param fastPath answer {@code GET /api/segment/get/{tag}} and {@code GET /api/snowflake/get/{key}}
 *     first in Tomcat's pipeline, ahead of the servlet filters and Spring MVC ({@link IdFastPathValve}); {@code false} sends
 *     them through Spring MVC like every other path. The answers are the same either way; the
 *     fast path serves about twice the requests per second (BENCHMARKS.md).
 * @param apiDocs publish the OpenAPI description ({@code /v3/api-docs}) and Swagger UI
 *     ({@code /swagger-ui.html}); {@code false} makes both unknown paths. On by default: they describe the
 *     public API docs/http-api.md documents, nothing more. Springdoc's own switches are set from it
 *     ({@code startup.ApiDocsSwitch}), which also keeps springdoc from warning at each start.
 */
@ConfigurationProperties("leaf.http")
public record HttpProperties(@DefaultValue("true") boolean fastPath, @DefaultValue("true") boolean apiDocs) {}
