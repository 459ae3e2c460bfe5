package org.leafid.server.admin;

import org.leafid.autoconfigure.LeafConfigurationException;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code leaf.admin.*}. The admin API exists only while a token is set; without one every
 * {@code /api/admin/**} path answers like a path that does not exist.
 *
 * @param token the bearer token admin requests must present; empty or unset switches the admin
 *     API off. At least 16 visible ASCII characters, so that it can be sent
 *     unchanged in a header and is not guessable like "admin".
 */
@ConfigurationProperties("leaf.admin")
public record AdminProperties(String token) {

    static final int MIN_TOKEN_LENGTH = 16;

    public AdminProperties {
        // The messages never contain the value: a start-up failure must not print the secret.
        if (token != null && !token.isEmpty()) {
            if (token.length() < MIN_TOKEN_LENGTH) {
                throw new LeafConfigurationException("leaf.admin.token", "must be at least " + MIN_TOKEN_LENGTH
                        + " characters long.", "Set a longer token, or leave it empty to switch the admin API off.");
            }
            if (!token.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
                throw new LeafConfigurationException("leaf.admin.token", "must consist of visible ASCII characters "
                        + "(no spaces), so that it can be sent as it is in an Authorization header.",
                        "Choose a token of letters, digits and punctuation.");
            }
        }
    }

    /** Whether the admin API is on. */
    public boolean enabled() {
        return token != null && !token.isEmpty();
    }

    /** Never shows the token: this record may end up in a log line or an error message. */
    @Override
    public String toString() {
        return "AdminProperties[token=" + (enabled() ? "(set)" : "(none)") + "]";
    }
}
