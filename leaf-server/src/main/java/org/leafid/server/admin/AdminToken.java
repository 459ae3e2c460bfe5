package org.leafid.server.admin;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.InstantSource;
import org.leafid.server.disclosure.AdminCaller;
import org.leafid.server.problem.RefusalLog;
import org.leafid.server.problem.TooManyWrongTokensException;
import org.leafid.server.problem.WrongAdminTokenException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * The one check of {@code Authorization: Bearer <leaf.admin.token>}, for the admin API
 * ({@link AdminAuth}) and for the endpoints that answer more to the admin (shard decode).
 *
 * <p>A wrong token is refused wherever it is presented (403), never taken for "no token": a caller
 * who sends one meant to be the admin, and must learn that it is not. Its warnings are throttled
 * (one per 10 s, with the count left out): anyone can send wrong tokens, and one line each would
 * let them fill the log.
 */
@Component
public final class AdminToken implements AdminCaller {

    private static final Logger log = LoggerFactory.getLogger(AdminToken.class);
    private static final String BEARER = "Bearer ";

    /** The token's bytes, or null while the admin API is off: then no request is the admin's. */
    private final byte[] token;
    private final RefusalLog refusals = new RefusalLog(log, 10_000);
    private final WrongTokenLimiter limiter;
    private final ClientAddresses clients;

    public AdminToken(AdminProperties properties, InstantSource leafClock) {
        this.token = properties.enabled() ? properties.token().getBytes(StandardCharsets.UTF_8) : null;
        this.limiter = new WrongTokenLimiter(leafClock);
        this.clients = new ClientAddresses(properties.trustedProxyRanges());
    }

    /**
     * Whether the request carries the admin token: false without a bearer token (or while the admin API
     * is off, when the header means nothing to this server).
     *
     * @throws TooManyWrongTokensException when its address sent {@value WrongTokenLimiter#LIMIT} wrong
     *     tokens within the last minute: nothing is compared until that minute is over
     * @throws WrongAdminTokenException when it carries another bearer token
     */
    public boolean presentedBy(HttpServletRequest request) {
        byte[] presented = bearer(request);
        if (presented == null) {
            return false;
        }
        String client = clients.of(request);
        long blocked = limiter.blockedForSeconds(client);
        if (blocked > 0) {
            refusals.warn("admin-token-rate-limited", "Admin requests from " + client + " are "
                    + "answered 429 for " + blocked + " s: " + WrongTokenLimiter.LIMIT + " wrong tokens within a "
                    + "minute; if the caller is yours, give it this server's leaf.admin.token");
            throw new TooManyWrongTokensException(WrongTokenLimiter.LIMIT, blocked);
        }
        // Constant time in the length of the configured token: no byte-by-byte early exit to time.
        if (!MessageDigest.isEqual(token, presented)) {
            limiter.wrong(client);
            // The presented value is not logged either: it may be a near miss of the real token.
            refusals.warn("wrong-admin-token", "Request " + request.getMethod() + " " + request.getRequestURI()
                    + " from " + client + " refused: wrong token; if the caller is yours, give it "
                    + "this server's leaf.admin.token");
            throw new WrongAdminTokenException();
        }
        return true;
    }

    /** The admin's, without counting or refusing anything: for what shows more to the admin ({@code Disclosure}). */
    @Override
    public boolean isAdmin(HttpServletRequest request) {
        byte[] presented = bearer(request);
        return presented != null && limiter.blockedForSeconds(clients.of(request)) == 0
                && MessageDigest.isEqual(token, presented);
    }

    /** The bearer token's bytes, or null when there is none (or the admin API is off). */
    private byte[] bearer(HttpServletRequest request) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (token == null || header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || header.substring(BEARER.length()).isBlank()) {
            return null;
        }
        return header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
    }
}
