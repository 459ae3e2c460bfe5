package org.leafid.server.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Lets an admin request through only with {@code Authorization: Bearer <leaf.admin.token>}.
 *
 * <p>An interceptor rather than a call in each controller method: it runs before the request
 * body is read, so a caller without the token learns nothing from validation answers, and an
 * endpoint added later under {@code /api/admin/} is covered without anyone remembering to
 * call a check. It acts on controller methods only; any other handler under that path (the
 * static-resource fallback of an unknown path) answers 404 as it would without admin.
 */
final class AdminAuth implements HandlerInterceptor {

    private static final Logger log = LoggerFactory.getLogger(AdminAuth.class);
    private static final String BEARER = "Bearer ";

    private final byte[] token;

    AdminAuth(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod)) {
            return true;
        }
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || header.substring(BEARER.length()).isBlank()) {
            throw new MissingAdminTokenException();
        }
        byte[] presented = header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
        // Constant time in the length of the configured token: no byte-by-byte early exit to time.
        if (!MessageDigest.isEqual(token, presented)) {
            // The presented value is not logged either: it may be a near miss of the real token.
            log.warn("Admin request {} {} from {} refused: wrong token", request.getMethod(),
                    request.getRequestURI(), request.getRemoteAddr());
            throw new WrongAdminTokenException();
        }
        return true;
    }
}
