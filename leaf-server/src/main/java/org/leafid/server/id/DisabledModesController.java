package org.leafid.server.id;

import jakarta.servlet.http.HttpServletRequest;
import org.leafid.autoconfigure.segment.SegmentProperties;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.core.format.UnknownFormatException;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.server.problem.ModeDisabledException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Answers a switched-off mode's paths with a 404 that says it is switched off, rather than a
 * bare "not found". An enabled mode's own controller maps its paths more specifically.
 */
@RestController
class DisabledModesController {

    private final boolean segmentEnabled;
    private final boolean snowflakeEnabled;
    private final boolean shardEnabled;

    DisabledModesController(SegmentProperties segment, SnowflakeProperties snowflake,
            ObjectProvider<ShardIdGenerator> shard) {
        this.segmentEnabled = segment.enable();
        this.snowflakeEnabled = snowflake.enable();
        // Shard mode's switch has a default that depends on the database: whether it is on is
        // whether its generator was made.
        this.shardEnabled = shard.getIfAvailable() != null;
    }

    @GetMapping("/api/segment/**")
    void segment() {
        if (!segmentEnabled) {
            throw new ModeDisabledException("segment", "leaf.segment.enable");
        }
        throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No such segment endpoint");
    }

    @GetMapping("/api/snowflake/**")
    void snowflake() {
        if (!snowflakeEnabled) {
            throw new ModeDisabledException("snowflake", "leaf.snowflake.enable");
        }
        throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No such snowflake endpoint");
    }

    /** No format is configured (the formats' controller answers when one is), or an unknown path under it. */
    @GetMapping("/api/format/**")
    void format(HttpServletRequest request) {
        String[] parts = request.getRequestURI().split("/");
        if (parts.length >= 5 && (parts[3].equals("get") || parts[3].equals("decode"))) {
            throw new UnknownFormatException(parts[4]);
        }
        throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No such format endpoint");
    }

    @GetMapping("/api/shard/**")
    void shard() {
        if (!shardEnabled) {
            throw ModeDisabledException.shard();
        }
        throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No such shard endpoint");
    }
}
