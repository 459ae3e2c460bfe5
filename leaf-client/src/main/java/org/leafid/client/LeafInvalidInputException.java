package org.leafid.client;

/**
 * Malformed input (400): a tag or key outside {@code [A-Za-z0-9._:-]{1,128}}, an app id outside
 * 0..255, a bad gate pass, or a batch larger than the server's {@code leaf.max-batch}. Checked in the
 * client before any call where the rule is known, so a bad tag fails at once.
 */
public final class LeafInvalidInputException extends LeafRequestException {

    LeafInvalidInputException(int status, String type, String detail, Throwable cause) {
        super(status, type, detail, cause);
    }
}
