package org.leafid.server.problem;

/** The one rule for tags and keys: in request paths and in admin request bodies. */
public final class Keys {

    static final int MAX_LENGTH = 128;

    private Keys() {}

    /** Returns the value when it is valid, else throws {@link InvalidKeyException}. */
    public static String requireValid(String what, String value) {
        if (!isValid(value)) {
            throw new InvalidKeyException(what);
        }
        return value;
    }

    /** Whether the value is 1-128 of {@code [A-Za-z0-9._:-]}; checked by hand, no regex, no allocation. */
    public static boolean isValid(String value) {
        int length = value.length();
        if (length == 0 || length > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == ':' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
