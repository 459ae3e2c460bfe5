package org.leafid.server.openapi;

import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /v3/api-docs}: the OpenAPI description, with {@code leaf.http.api-docs} on (off by
 * default; off, the path is unknown). Built once, at the start, so a broken description fails the
 * start rather than the first reader.
 */
@RestController
@ConditionalOnLeafSwitch(value = "leaf.http.api-docs", whenUnset = false)
class OpenApiController {

    private final byte[] description;

    OpenApiController(JsonMapper json, ObjectProvider<BuildProperties> build) {
        BuildProperties properties = build.getIfAvailable();
        this.description = OpenApiDescription.build(json, properties == null ? "development" : properties.getVersion());
    }

    @GetMapping(value = "/v3/api-docs", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> description() {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(description);
    }
}
