package org.leafid.server.problem;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request whose {@code Accept} header cannot be parsed with 400 problem+json before any
 * handler runs. Without it, Spring finds out only when it writes the answer, after an ID was
 * taken, and answers 500 with an empty body: the ID is lost and the client learns nothing.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class AcceptHeaderFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!acceptParses(request)) {
            ProblemJson.write(response, ProblemType.INVALID_ACCEPT,
                    "The Accept header is not a list of media types (RFC 9110, section 12.5.1); send e.g. "
                            + "'Accept: application/json' or leave it out");
            return;
        }
        chain.doFilter(request, response);
    }

    /** Whether every {@code Accept} header of the request is a list of media types (or there is none). */
    public static boolean acceptParses(HttpServletRequest request) {
        Enumeration<String> accepts = request.getHeaders(HttpHeaders.ACCEPT);
        while (accepts != null && accepts.hasMoreElements()) {
            try {
                MediaType.parseMediaTypes(accepts.nextElement());
            } catch (InvalidMediaTypeException e) {
                return false;
            }
        }
        return true;
    }
}
