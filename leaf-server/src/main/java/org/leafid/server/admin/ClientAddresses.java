package org.leafid.server.admin;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Which client an admin request counts for, for the wrong-token limit and the log. Its TCP peer,
 * unless that peer is one of {@code leaf.admin.trusted-proxies}: then the nearest address of
 * {@code X-Forwarded-For} that is not a trusted proxy itself (the header is read from the right, the
 * end a trusted proxy appended to; what a client wrote further left is its own claim and is not
 * believed). Without trusted proxies the header is never read, so a client cannot pick the address
 * its wrong tokens are counted under.
 */
final class ClientAddresses {

    static final String FORWARDED_FOR = "X-Forwarded-For";

    private final List<AddressRange> trustedProxies;

    ClientAddresses(List<AddressRange> trustedProxies) {
        this.trustedProxies = List.copyOf(trustedProxies);
    }

    String of(HttpServletRequest request) {
        String peer = request.getRemoteAddr();
        if (trustedProxies.isEmpty() || !trusted(peer)) {
            return peer;
        }
        List<String> headers = Collections.list(request.getHeaders(FORWARDED_FOR));
        for (int h = headers.size() - 1; h >= 0; h--) {
            String[] hops = headers.get(h).split(",");
            for (int i = hops.length - 1; i >= 0; i--) {
                String hop = hops[i].strip();
                if (hop.isEmpty()) {
                    continue;
                }
                if (!trusted(hop)) {
                    return AddressRange.literal(hop).isPresent() ? hop : "unreadable(" + peer + ")";
                }
            }
        }
        return peer; // the proxy's own request, or one it forwarded without the header
    }

    private boolean trusted(String address) {
        Optional<byte[]> bytes = AddressRange.literal(address);
        return bytes.isPresent() && trustedProxies.stream().anyMatch(range -> range.contains(bytes.get()));
    }
}
