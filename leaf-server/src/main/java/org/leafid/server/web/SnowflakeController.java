package org.leafid.server.web;

import org.leafid.core.snowflake.SnowflakeGenerator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Snowflake IDs, Leaf-compatible. The key is validated but, as in Leaf, does not change the ID. */
@RestController
@ConditionalOnProperty(name = "leaf.snowflake.enable", havingValue = "true", matchIfMissing = true)
class SnowflakeController {

    private final SnowflakeGenerator generator;

    SnowflakeController(SnowflakeGenerator generator) {
        this.generator = generator;
    }

    @GetMapping("/api/snowflake/get/{key}")
    ResponseEntity<String> get(@PathVariable String key) {
        Keys.requireValid("key", key);
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(Long.toString(generator.nextId()));
    }
}
