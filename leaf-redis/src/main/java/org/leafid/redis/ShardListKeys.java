package org.leafid.redis;

import java.util.OptionalInt;

/**
 * The Redis keys of the Redis-queue ID services, spelled exactly as they spell them so that a
 * running deployment can switch to this server: the list {@code id.gen.idList_{appId}_{shardId}}
 * and the refill lock {@code id.gen.lock_{appId}_{shardId}}.
 */
final class ShardListKeys {

    static final String LIST_PREFIX = "id.gen.idList_";
    static final String LOCK_PREFIX = "id.gen.lock_";
    /** The SCAN pattern of every list, whatever the app. */
    static final String LIST_PATTERN = LIST_PREFIX + "*";

    private ShardListKeys() {
    }

    static String list(int appId, int shardId) {
        return LIST_PREFIX + appId + "_" + shardId;
    }

    static String lock(int appId, int shardId) {
        return LOCK_PREFIX + appId + "_" + shardId;
    }

    /**
     * Leaf's own hash beside a list: {@code here}, a mark of the Redis process that pops it (never
     * replicated), and {@code popped}, the highest index popped from it. In braces, so that Redis Cluster
     * keeps it in the list's slot (the pop script touches both); not of their shape, so their services
     * and the removed-app sweep leave it alone.
     */
    static String guard(String listKey) {
        return "{" + listKey + "}.leaf";
    }

    /** The app id of a list key, or empty when the key does not have their shape (left alone then). */
    static OptionalInt appIdOfList(String key) {
        if (!key.startsWith(LIST_PREFIX)) {
            return OptionalInt.empty();
        }
        String rest = key.substring(LIST_PREFIX.length());
        int underscore = rest.indexOf('_');
        if (underscore <= 0 || underscore == rest.length() - 1) {
            return OptionalInt.empty();
        }
        try {
            Integer.parseInt(rest.substring(underscore + 1));
            return OptionalInt.of(Integer.parseInt(rest.substring(0, underscore)));
        } catch (NumberFormatException notOurs) {
            // Another tool's key that happens to share the prefix: not a list of an app, so not deleted.
            return OptionalInt.empty();
        }
    }
}
