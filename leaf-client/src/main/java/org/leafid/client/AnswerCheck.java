package org.leafid.client;

/**
 * What one buffer requires of an answer before it hands out any ID of it (the count and the format
 * are {@link IdLines}'). Two moments count. The floor an answer must reach above is read just before
 * a server is asked ({@link #before}): an answer to a request sent after another one was served from
 * must be above it, while two requests in flight at once may be answered in either order without the
 * lower one counting against a healthy server. What was accepted is compared when the answer comes
 * ({@link Judge#accept}), under one lock with the recording of it ({@link RecentAnswers}): so two
 * answers in flight at once are judged against each other too, and never both accepted when they
 * share an ID. The buffer serves ordered modes from above the largest ID it served, whatever was
 * accepted ({@link PrefetchBuffer}).
 */
interface AnswerCheck {

    /** The check of the answer to a request about to be sent to {@code server}. */
    Judge before(String server);

    /** Judges one answer; when it passes, records what later answers are judged by. */
    @FunctionalInterface
    interface Judge {
        void accept(AnswerIds ids) throws BadAnswerException;
    }
}
