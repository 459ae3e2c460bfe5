package org.leafid.client;

/**
 * Parses a batch answer, one decimal ID per line, straight from the bytes: no String per line, one
 * {@code long[]} for the batch. The answer must hold exactly the IDs asked for, each line ended by
 * {@code \n}: a body cut short (or anything else) is refused whole, so that no ID is taken from a
 * batch whose end is unknown.
 */
final class IdLines {

    private static final long LAST_SAFE = (Long.MAX_VALUE - 9) / 10;

    private IdLines() {}

    static long[] parse(byte[] body, int expected) throws BadAnswerException {
        long[] ids = new long[expected];
        int count = 0;
        long value = 0;
        int digits = 0;
        for (byte b : body) {
            if (b >= '0' && b <= '9') {
                int digit = b - '0';
                if (value > LAST_SAFE && (value > (Long.MAX_VALUE - digit) / 10)) {
                    throw new BadAnswerException("format", "an ID above 2^63-1 at line " + (count + 1));
                }
                value = value * 10 + digit;
                digits++;
            } else if (b == '\n' && digits > 0 && count < expected) {
                ids[count++] = value;
                value = 0;
                digits = 0;
            } else if (b == '\n' && digits > 0) {
                throw new BadAnswerException("count", "more than the " + expected + " IDs asked for");
            } else {
                throw new BadAnswerException("format", "byte " + (b & 0xff) + " at line " + (count + 1) + " of "
                        + expected + " expected IDs");
            }
        }
        if (digits != 0) {
            throw new BadAnswerException("format", "the answer was cut within line " + (count + 1));
        }
        if (count != expected) {
            throw new BadAnswerException("count", "the answer was cut: " + count + " complete lines of " + expected);
        }
        return ids;
    }
}
