package org.leafid.server.web;

/** The one rule for tags and keys in request paths. */
final class Keys {

    static final int MAX_LENGTH = 128;

    private Keys() {}

    /** Returns the value when it is 1-128 of {@code [A-Za-z0-9._:-]}; checked by hand, no regex, no allocation. */
    static String requireValid(String what, String value) {
        int length = value.length();
        if (length == 0 || length > MAX_LENGTH) {
            throw new InvalidKeyException(what);
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == ':' || c == '-';
            if (!allowed) {
                throw new InvalidKeyException(what);
            }
        }
        return value;
    }
}
