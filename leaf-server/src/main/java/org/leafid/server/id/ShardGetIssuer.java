package org.leafid.server.id;

import jakarta.servlet.http.HttpServletRequest;
import org.leafid.core.segment.IdRanges;
import org.leafid.core.shard.ShardId;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.server.problem.InvalidAppIdException;
import org.leafid.server.problem.InvalidGatePassException;

/**
 * The shard mode's part of {@code GET /api/shard/get/{appId}[?gatePass=…][&count=N]}: the app id
 * from the path (0..255 written plainly), the shard from the gate pass, round-robin without one.
 */
final class ShardGetIssuer implements IdGetCall.RangeIssuer<ShardGetIssuer.AppAndGatePass> {

    /** What the IDs of consecutive indexes of one shard step by: the bits below the index. */
    private static final long INDEX_STRIDE = 1L << ShardId.INDEX_SHIFT;

    /** What a shard ID is issued for; {@code gatePass} is null for round-robin. */
    record AppAndGatePass(int appId, String gatePass) {}

    private final ShardIdGenerator generator;

    ShardGetIssuer(ShardIdGenerator generator) {
        this.generator = generator;
    }

    @Override
    public AppAndGatePass key(String given, HttpServletRequest request) {
        int app = parseAppId(given);
        // Without a query string there is no gate pass, and Tomcat's parameter parsing is skipped.
        return new AppAndGatePass(app,
                request.getQueryString() == null ? null : gatePass(request.getParameterValues("gatePass")));
    }

    @Override
    public long nextId(AppAndGatePass key) {
        return generator.nextId(key.appId(), key.gatePass());
    }

    @Override
    public long[] nextIds(AppAndGatePass key, int count) {
        return generator.nextIds(key.appId(), key.gatePass(), count);
    }

    /**
     * The batch as runs of IDs that step by {@value #INDEX_STRIDE}: the IDs are issued as for a list,
     * then written as the runs of consecutive indexes they are.
     */
    @Override
    public IdRanges nextRanges(AppAndGatePass key, int count) {
        return IdRanges.of(nextIds(key, count), INDEX_STRIDE);
    }

    /** An opaque key's IDs have no runs to show, and must not: they keep the list form. */
    @Override
    public boolean givesRanges() {
        return !generator.opaque();
    }

    /** 0..255 written plainly: no sign, no leading zeros beyond "0", at most 3 digits. */
    static int parseAppId(String given) {
        int length = given.length();
        if (length == 0 || length > 3 || (length > 1 && given.charAt(0) == '0')) {
            throw new InvalidAppIdException(given);
        }
        int value = 0;
        for (int i = 0; i < length; i++) {
            char c = given.charAt(i);
            if (c < '0' || c > '9') {
                throw new InvalidAppIdException(given);
            }
            value = value * 10 + (c - '0');
        }
        if (value > ShardId.MAX_APP_ID) {
            throw new InvalidAppIdException(given);
        }
        return value;
    }

    /** The gate pass, or null for round-robin. Given twice is refused rather than one picked. */
    static String gatePass(String[] given) {
        if (given == null) {
            return null;
        }
        if (given.length != 1) {
            throw new InvalidGatePassException("is given " + given.length + " times");
        }
        String gatePass = given[0];
        if (gatePass.isEmpty()) {
            throw new InvalidGatePassException("is empty");
        }
        if (gatePass.length() > ShardId.MAX_GATE_PASS_LENGTH) {
            throw new InvalidGatePassException("has " + gatePass.length() + " characters");
        }
        return gatePass;
    }
}
