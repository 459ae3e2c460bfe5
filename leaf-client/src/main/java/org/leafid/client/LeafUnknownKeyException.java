package org.leafid.client;

/** The tag, app or shard is not on the server, or its mode is off there (404). */
public final class LeafUnknownKeyException extends LeafRequestException {

    LeafUnknownKeyException(int status, String type, String detail, Throwable cause) {
        super(status, type, detail, cause);
    }
}
