package org.leafid.client;

/**
 * What one buffer requires of an answer before it hands out any ID of it (the count and the format
 * are {@link IdLines}'). A check is taken just before a server is asked, so that it judges the
 * answer by what was known when the request left: an answer to a request sent after another one
 * was accepted must be above it, while two requests in flight at once may be answered in any order.
 */
interface AnswerCheck {

    /** The check of the answer to a request about to be sent to {@code server}. */
    Judge before(String server);

    /** Judges one answer; when it passes, records what later answers are judged by. */
    @FunctionalInterface
    interface Judge {
        void accept(long[] ids) throws BadAnswerException;
    }
}
