package org.leafid.core.worker;

import java.nio.file.Path;
import org.leafid.core.LeafException;

/**
 * A worker-id cache file that cannot be read as one: the start stops (the reservation it held is
 * unknown, so issuing could repeat IDs), and says which file and what to do.
 */
public final class WorkerCacheFileException extends LeafException {

    /** Enough of the content to recognise it; the file may hold anything, of any size. */
    private static final int SHOWN_CONTENT = 80;

    private final Path path;

    WorkerCacheFileException(Path path, String content, Throwable cause) {
        super("Worker-id cache " + path + " is not valid (" + shown(content) + "); restore it, or delete it only "
                + "once the clock is past any time this instance issued IDs at", cause);
        this.path = path;
    }

    public Path path() {
        return path;
    }

    /** One line: control characters (a NUL, line breaks) as '?', cut after {@value #SHOWN_CONTENT} characters. */
    private static String shown(String content) {
        String stripped = content.strip();
        StringBuilder shown = new StringBuilder();
        stripped.codePoints().limit(SHOWN_CONTENT)
                .forEach(c -> shown.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return stripped.codePointCount(0, stripped.length()) > SHOWN_CONTENT ? shown + "…" : shown.toString();
    }
}
