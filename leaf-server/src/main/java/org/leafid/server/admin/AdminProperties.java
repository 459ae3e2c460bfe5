package org.leafid.server.admin;

import java.util.List;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code leaf.admin.*}. The admin API exists only while a token is set; without one every
 * {@code /api/admin/**} path answers like a path that does not exist.
 *
 * @param token the bearer token admin requests must present; empty or unset switches the admin
 *     API off. At least 32 visible ASCII characters (openssl rand -hex 24 gives 48), so that it can be
 *     sent unchanged in a header and cannot be guessed within the wrong-token limit
 * @param trustedProxies addresses or CIDR blocks (10.0.0.7, 10.0.0.0/8, fd00::/8) of the proxies in
 *     front of this server (an ingress, a load balancer): a request from one of them counts for the
 *     wrong-token limit under the client address it forwarded (X-Forwarded-For, read from the right),
 *     not its own, so that one caller's wrong tokens do not lock every operator behind the proxy out.
 *     Empty: the header is never read
 */
@ConfigurationProperties("leaf.admin")
public record AdminProperties(String token, List<String> trustedProxies) {

    static final int MIN_TOKEN_LENGTH = 32;

    public AdminProperties {
        trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
        for (String proxy : trustedProxies) {
            try {
                AddressRange.parse(proxy);
            } catch (IllegalArgumentException e) {
                throw new LeafConfigurationException("leaf.admin.trusted-proxies", e.getMessage() + ".",
                        "List the addresses or CIDR blocks of the proxies in front of this server, comma-separated.");
            }
        }
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

    /** The trusted proxies, parsed (each was checked at construction). */
    List<AddressRange> trustedProxyRanges() {
        return trustedProxies.stream().map(AddressRange::parse).toList();
    }

    /** Whether the admin API is on. */
    public boolean enabled() {
        return token != null && !token.isEmpty();
    }

    /** Never shows the token: this record may end up in a log line or an error message. */
    @Override
    public String toString() {
        return "AdminProperties[token=" + (enabled() ? "(set)" : "(none)") + ", trustedProxies=" + trustedProxies + "]";
    }
}
