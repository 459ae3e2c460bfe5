package org.leafid.server.id;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import org.leafid.autoconfigure.mode.ConditionalOnShardMode;
import org.leafid.autoconfigure.shard.ShardBufferStatus;
import org.leafid.autoconfigure.shard.ShardMeters;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardAppDirectory;
import org.leafid.core.shard.ShardId;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.server.admin.AdminToken;
import org.leafid.server.problem.InvalidIdException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Shard-mode IDs ({@code index << 14 | shardId << 8 | appId}): one as plain text, {@code ?count=N}
 * as the other modes answer batches; the shard from {@code gatePass}, round-robin without one
 * ({@link ShardGetIssuer}). Ordinary GETs of an ID are answered by {@link IdFastPathValve}; this
 * mapping answers the rest the same way, with the same code. Also the decoding of an ID and the
 * list of apps with their headroom.
 */
@RestController
@ConditionalOnShardMode
class ShardController {

    private final ShardIdGenerator generator;
    private final ShardAppDirectory apps;
    private final ShardMeters meters;
    private final ShardBufferStatus buffer;
    private final IdGetCall<?> getCall;
    /** Who gets an opaque ID's index: a request with the admin token (none while the admin API is off). */
    private final AdminToken adminToken;

    ShardController(ShardIdGenerator generator, ShardAppDirectory apps, ShardMeters meters, ShardBufferStatus buffer,
            AdminToken adminToken, @Qualifier("shardGetCall") IdGetCall<?> shardGetCall) {
        this.generator = generator;
        this.apps = apps;
        this.meters = meters;
        this.buffer = buffer;
        this.getCall = shardGetCall;
        this.adminToken = adminToken;
    }

    @GetMapping("/api/shard/get/{appId}")
    void get(@PathVariable String appId, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        getCall.serve(appId, request, response);
    }

    /**
     * The parts of an ID. Plain indexes are in the ID for anyone to read; an opaque one is
     * turned back into the index it was issued from only for a request with the admin token. A wrong
     * token is a 403 whatever the ID: the caller meant to be the admin and must learn it is not.
     */
    @GetMapping(value = "/api/shard/decode/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    ShardDecodedId decode(@PathVariable String id, HttpServletRequest request) {
        boolean admin = adminToken.presentedBy(request);
        long value;
        try {
            value = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new InvalidIdException("shard", id);
        }
        if (value < 0) {
            throw new InvalidIdException("shard", id);
        }
        ShardId parts;
        try {
            parts = ShardId.decode(value);
        } catch (IllegalArgumentException impossible) {
            // 0, or an index of 0: a number no server issues, so a client's mistake (400), not a server fault.
            throw new InvalidIdException("shard", id, impossible.getMessage());
        }
        String shown = Long.toString(value);
        if (!generator.opaque()) {
            return new ShardDecodedId(shown, parts.appId(), parts.shardId(), parts.index(), null);
        }
        if (!admin) {
            return new ShardDecodedId(shown, parts.appId(), parts.shardId(), null,
                    "opaque IDs (leaf.shard.opaque-key): the index is answered to requests with the admin token only");
        }
        try {
            return new ShardDecodedId(shown, parts.appId(), parts.shardId(), generator.issuedIndex(value), null);
        } catch (IllegalArgumentException notIssuedHere) {
            throw new InvalidIdException("shard", id);
        }
    }

    @GetMapping(value = "/api/shard/apps", produces = MediaType.APPLICATION_JSON_VALUE)
    List<ShardAppView> apps() {
        String source = buffer.source();
        return apps.apps().stream().sorted(Comparator.comparingInt(ShardApp::appId))
                .map(app -> {
                    long queued = buffer.queueLength(app.appId());
                    return new ShardAppView(app.appId(), app.appName(), app.shards().size(), app.step(),
                            Long.toString(app.maxLimitId()), meters.headroom(app.appId()), source,
                            queued < 0 ? null : queued, generator.opaque());
                })
                .toList();
    }
}
