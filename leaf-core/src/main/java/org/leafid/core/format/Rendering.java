package org.leafid.core.format;

import java.time.ZonedDateTime;
import org.leafid.core.format.FormatPattern.Check;
import org.leafid.core.format.FormatPattern.Date;
import org.leafid.core.format.FormatPattern.Literal;
import org.leafid.core.format.FormatPattern.Number;
import org.leafid.core.format.FormatPattern.Part;

/**
 * A format's strings for one stretch of time in which its date parts do not change: the literal
 * text and date parts written once, and the check's sum over them computed once, so a string costs
 * the number's digits, their share of the check, and one copy. Immutable.
 */
final class Rendering {

    private final char[] template;
    private final Radix radix;
    private final int numberAt;
    private final int numberWidth;
    private final CheckScheme scheme;
    private final int checkAt;
    /** The check's sum over every counted character but the number's. */
    private final int constantSum;
    /** Whether each of the number's characters is doubled in the check's sum, left to right. */
    private final boolean[] doubled;

    Rendering(FormatPattern pattern, ZonedDateTime time) {
        template = new char[pattern.length()];
        Check check = pattern.check();
        Number number = pattern.number();
        for (Part part : pattern.parts()) {
            if (part instanceof Literal literal) {
                literal.text().getChars(0, literal.width(), template, literal.at());
            } else if (part instanceof Date date) {
                Radix.DECIMAL.write(date.field().of(time), template, date.at(), date.width());
            } else if (part instanceof Number n) {
                Radix.DECIMAL.write(0, template, n.at(), n.width());
            } else if (part instanceof Check c) {
                template[c.at()] = '0';
            }
        }
        radix = number.radix();
        numberAt = number.at();
        numberWidth = number.width();
        doubled = new boolean[numberWidth];
        if (check == null) {
            scheme = null;
            checkAt = -1;
            constantSum = 0;
            return;
        }
        scheme = check.scheme();
        checkAt = check.at();
        // Luhn: the character right before the check is doubled, then every second one leftwards.
        int sum = 0;
        boolean doubling = true;
        for (int i = checkAt - 1; i >= 0; i--) {
            boolean inNumber = i >= numberAt && i < numberAt + numberWidth;
            if (inNumber) {
                doubled[i - numberAt] = doubling; // every character of the number is counted
            } else {
                int value = scheme.value(template[i]);
                if (value < 0) {
                    continue;
                }
                sum += scheme.addend(value, doubling);
            }
            doubling = !doubling;
        }
        constantSum = sum;
    }

    /** The string of {@code number} (within the pattern's width). */
    String render(long number) {
        char[] out = template.clone();
        int sum = constantSum;
        long rest = number;
        for (int i = numberWidth - 1; i >= 0; i--) {
            int digit = digit(rest);
            rest = quotient(rest);
            out[numberAt + i] = DIGITS[digit];
            if (scheme != null) {
                int value = digit < 36 ? digit : digit - 26; // base 62's lower case counts as upper case
                sum += doubled[i] ? scheme.addend(value, true) : value;
            }
        }
        if (scheme != null) {
            out[checkAt] = scheme.checkFor(sum);
        }
        return new String(out);
    }

    private static final char[] DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    // Division by a constant compiles to a multiplication; by a field it would not.
    private int digit(long value) {
        return switch (radix) {
            case DECIMAL -> (int) (value % 10);
            case BASE36 -> (int) (value % 36);
            case BASE62 -> (int) (value % 62);
        };
    }

    private long quotient(long value) {
        return switch (radix) {
            case DECIMAL -> value / 10;
            case BASE36 -> value / 36;
            case BASE62 -> value / 62;
        };
    }
}
