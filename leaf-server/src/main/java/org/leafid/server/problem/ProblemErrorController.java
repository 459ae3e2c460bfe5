package org.leafid.server.problem;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * Tomcat's error page, {@code /error}: answers that did not come from Leaf's handlers (a method
 * Tomcat refuses such as TRACE, a {@code sendError} from a filter) are problem+json like all the
 * others, never Spring Boot's default JSON or a whitelabel page. Replaces Boot's
 * {@code BasicErrorController}; the detail is the status's reason, never the exception's message.
 */
@Controller
class ProblemErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer value && value >= 400 ? value : HttpStatus.NOT_FOUND.value();
        if (response.isCommitted()) {
            return; // part of an answer already went out; nothing sensible can follow it
        }
        response.resetBuffer();
        HttpStatus known = HttpStatus.resolve(status);
        ProblemJson.write(response, status, ProblemType.namedAfter(status),
                known == null ? "The request failed with HTTP status " + status
                        : "The request failed: " + known.getReasonPhrase() + " (see the API table in docs/http-api.md)");
    }
}
