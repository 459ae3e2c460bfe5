package org.leafid.server.problem;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's error report for requests it refuses before any servlet sees them (an encoded NUL or
 * a path above the root in the target, bad percent-encoding, headers over the size limit,
 * conflicting Content-Length): problem+json like every other Leaf answer, instead of Tomcat's
 * HTML page. Answers that reach the application never get here: {@link ProblemErrorController}
 * or the handlers have written a body by then.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final Logger log = LoggerFactory.getLogger(ProblemErrorReportValve.class);

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return; // the connection is already gone
        }
        String detail = status == 400
                ? "Tomcat refused the request before Leaf saw it: the request line, the target (e.g. an encoded "
                        + "NUL, a path above the root, bad percent-encoding) or the headers (size, duplicates) "
                        + "are not acceptable"
                : "Tomcat refused the request before Leaf saw it";
        String body = ProblemJson.body(status, ProblemType.namedAfter(status), detail);
        try {
            response.setContentType(ProblemJson.CONTENT_TYPE);
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(body);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            log.debug("Could not write the problem answer of a refused request: {}", e.toString());
        }
    }
}
