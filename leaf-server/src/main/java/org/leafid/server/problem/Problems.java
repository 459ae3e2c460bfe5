package org.leafid.server.problem;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** RFC 9457 answers with Leaf's stable {@link ProblemType}s; one shape for every handler. */
public final class Problems {

    private Problems() {}

    /**
     * @param type the type, which gives the status too
     * @param retryAfterSeconds sent as {@code Retry-After} when positive
     */
    public static ResponseEntity<ProblemDetail> response(ProblemType type, String detail, long retryAfterSeconds) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(type.status(), detail);
        body.setType(type.uri());
        ResponseEntity.BodyBuilder response = ResponseEntity.status(type.status());
        if (retryAfterSeconds > 0) {
            response.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        }
        return response.body(body);
    }
}
