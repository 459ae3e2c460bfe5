package org.leafid.server.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Lets an admin request through only with {@code Authorization: Bearer <leaf.admin.token>} ({@link AdminToken}).
 *
 * <p>An interceptor rather than a call in each controller method: it runs before the request
 * body is read, so a caller without the token learns nothing from validation answers, and an
 * endpoint added later under {@code /api/admin/} is covered without anyone remembering to
 * call a check. It acts on controller methods only; any other handler under that path (the
 * static-resource fallback of an unknown path) answers 404 as it would without admin.
 */
final class AdminAuth implements HandlerInterceptor {

    private final AdminToken token;

    AdminAuth(AdminToken token) {
        this.token = token;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod && !token.presentedBy(request)) {
            throw new MissingAdminTokenException();
        }
        return true;
    }
}
