package org.leafid.server.id;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.server.problem.InvalidIdException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Snowflake IDs, Leaf-compatible. The key is validated but, as in Leaf, does not change the ID.
 * Ordinary GETs of an ID are answered by {@link IdFastPathValve}; this mapping answers the rest.
 */
@RestController
@ConditionalOnLeafSwitch("leaf.snowflake.enable")
class SnowflakeController {

    private final SnowflakeGenerator generator;
    private final IdGetCall<?> getCall;

    SnowflakeController(SnowflakeGenerator generator, @Qualifier("snowflakeGetCall") IdGetCall<?> snowflakeGetCall) {
        this.generator = generator;
        this.getCall = snowflakeGetCall;
    }

    @GetMapping("/api/snowflake/get/{key}")
    void get(@PathVariable String key, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        getCall.serve(key, request, response);
    }

    @GetMapping(value = "/api/snowflake/decode/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    DecodedId decode(@PathVariable String id) {
        long value;
        try {
            value = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new InvalidIdException(id);
        }
        if (value < 0) {
            throw new InvalidIdException(id);
        }
        return DecodedId.of(generator.layout().decode(value), generator.layout());
    }
}
