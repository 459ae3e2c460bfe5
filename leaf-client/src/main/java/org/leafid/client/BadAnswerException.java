package org.leafid.client;

/**
 * An answer that failed one of the client's checks: not exactly the batch asked for, or IDs that
 * cannot be right (zero, another app's, not above what was served before), or a body too long or
 * too slow. The server (or a proxy before it) is at fault: it is marked down and the next one is
 * asked; no ID of the answer is handed out.
 */
final class BadAnswerException extends Exception {

    private final String check;

    /**
     * @param check the check that failed, a short name used as a meter tag ({@code positive}, {@code app}…)
     */
    BadAnswerException(String check, String detail) {
        super("check " + check + ": " + detail, null, false, false);
        this.check = check;
    }

    String check() {
        return check;
    }
}
