package org.leafid.server.web;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The answers of the get endpoints: one ID as plain text (Leaf's format), or a batch as one ID
 * per line, or as a JSON array of strings (IDs pass 2^53, which JSON numbers cannot carry).
 */
final class IdAnswers {

    private IdAnswers() {}

    static ResponseEntity<String> single(long id) {
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(Long.toString(id));
    }

    static ResponseEntity<String> batch(long[] ids, boolean json) {
        StringBuilder body = new StringBuilder(ids.length * 21 + 2);
        if (json) {
            body.append('[');
            for (int i = 0; i < ids.length; i++) {
                body.append(i == 0 ? "\"" : ",\"").append(ids[i]).append('"');
            }
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body.append(']').toString());
        }
        for (long id : ids) {
            body.append(id).append('\n');
        }
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(body.toString());
    }

    /** {@code count} as given: absent means the single-ID answer. */
    static int parseCount(String count, int max) {
        int value;
        try {
            value = Integer.parseInt(count.trim());
        } catch (NumberFormatException e) {
            throw new InvalidCountException(count, max);
        }
        if (value < 1 || value > max) {
            throw new InvalidCountException(count, max);
        }
        return value;
    }

    /**
     * Whether the {@code Accept} header asks for JSON (a wildcard does not). A malformed header
     * never gets here: {@link AcceptHeaderFilter} refuses it.
     */
    static boolean wantsJson(String accept) {
        if (accept == null) {
            return false;
        }
        for (MediaType type : MediaType.parseMediaTypes(accept)) {
            if (type.isCompatibleWith(MediaType.APPLICATION_JSON) && !type.isWildcardType()) {
                return true;
            }
        }
        return false;
    }
}
