package org.leafid.server.web;

import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** RFC 9457 answers with Leaf's stable {@code urn:leaf:problem:*} types; one shape for every handler. */
public final class Problems {

    public static final String TYPE_PREFIX = "urn:leaf:problem:";

    private Problems() {}

    /**
     * @param type the part after {@link #TYPE_PREFIX}, e.g. {@code unknown-tag}
     * @param retryAfterSeconds sent as {@code Retry-After} when positive
     */
    public static ResponseEntity<ProblemDetail> response(HttpStatus status, String type, String detail,
            long retryAfterSeconds) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(TYPE_PREFIX + type));
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status);
        if (retryAfterSeconds > 0) {
            response.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        }
        return response.body(body);
    }
}
