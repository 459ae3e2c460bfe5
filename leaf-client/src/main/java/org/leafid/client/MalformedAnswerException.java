package org.leafid.client;

/** A 200 answer that is not exactly the batch asked for: the server (or a proxy) is at fault. */
final class MalformedAnswerException extends Exception {

    MalformedAnswerException(String message) {
        super(message, null, false, false);
    }
}
