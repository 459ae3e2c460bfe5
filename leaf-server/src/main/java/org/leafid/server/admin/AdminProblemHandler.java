package org.leafid.server.admin;

import org.leafid.core.segment.SegmentStoreException;
import org.leafid.jdbc.segment.TagTableException;
import org.leafid.jdbc.shard.ShardTableException;
import org.leafid.server.problem.ProblemType;
import org.leafid.server.problem.Problems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.core.JacksonException;

/**
 * Problem answers of this package's controllers. Ordered before the server's general handler,
 * which still answers what is not handled here (unknown tag, invalid path tag, mode disabled).
 */
@RestControllerAdvice(basePackageClasses = AdminProblemHandler.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class AdminProblemHandler {

    private static final Logger log = LoggerFactory.getLogger(AdminProblemHandler.class);
    private static final int MAX_PARSER_REASON = 120;

    @ExceptionHandler(MissingAdminTokenException.class)
    ResponseEntity<ProblemDetail> missingToken(MissingAdminTokenException e) {
        ResponseEntity<ProblemDetail> problem = Problems.response(ProblemType.UNAUTHORIZED,
                e.getMessage(), 0);
        return ResponseEntity.status(problem.getStatusCode()).headers(problem.getHeaders())
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"leaf-admin\"").body(problem.getBody());
    }

    @ExceptionHandler(InvalidRequestException.class)
    ResponseEntity<ProblemDetail> invalidRequest(InvalidRequestException e) {
        ResponseEntity<ProblemDetail> problem = Problems.response(ProblemType.INVALID_REQUEST,
                e.getMessage() + "; nothing was changed", 0);
        if (e.field() != null) {
            problem.getBody().setProperty("field", e.field());
        }
        return problem;
    }

    /** A missing body or one that is not JSON at all: the parser's reason and where it stopped. */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ProblemDetail> unreadableBody(HttpMessageNotReadableException e) {
        String detail = e.getCause() instanceof JacksonException parse
                ? "The body is not valid JSON (" + reasonOf(parse) + locationOf(parse) + ")"
                : "The request needs a JSON body";
        return Problems.response(ProblemType.INVALID_REQUEST, detail + "; nothing was changed", 0);
    }

    @ExceptionHandler(BelowHighWaterException.class)
    ResponseEntity<ProblemDetail> belowHighWater(BelowHighWaterException e) {
        return Problems.response(ProblemType.BELOW_HIGH_WATER, e.getMessage() + "; nothing was changed", 0);
    }

    @ExceptionHandler(AppModeTakenException.class)
    ResponseEntity<ProblemDetail> appModeTaken(AppModeTakenException e) {
        return Problems.response(ProblemType.APP_MODE_TAKEN, e.getMessage() + "; nothing was changed",
                0);
    }

    @ExceptionHandler(TagExistsException.class)
    ResponseEntity<ProblemDetail> tagExists(TagExistsException e) {
        return Problems.response(ProblemType.TAG_EXISTS, e.getMessage()
                + "; change its step with PUT /api/admin/tags/" + e.tag() + "/step, or pick another tag", 0);
    }

    @ExceptionHandler(AppExistsException.class)
    ResponseEntity<ProblemDetail> appExists(AppExistsException e) {
        return Problems.response(ProblemType.APP_EXISTS, e.getMessage()
                + "; change its rows with SQL, or pick another app id (0-255)", 0);
    }

    @ExceptionHandler(ShardTableException.class)
    ResponseEntity<ProblemDetail> shardTableUnavailable(ShardTableException e) {
        log.warn("Admin request answered with 503: {}", e.getMessage());
        return Problems.response(ProblemType.STORE_UNAVAILABLE,
                "The database of id_alloc could not be reached; nothing was created, retry shortly", 1);
    }

    @ExceptionHandler(TagTableException.class)
    ResponseEntity<ProblemDetail> tableUnavailable(TagTableException e) {
        log.warn("Admin request answered with 503: {}", e.getMessage());
        return Problems.response(ProblemType.STORE_UNAVAILABLE,
                "The database of leaf_alloc could not be reached; retry shortly", 1);
    }

    @ExceptionHandler(StoreUnreachableException.class)
    ResponseEntity<ProblemDetail> storeUnreachable(StoreUnreachableException e) {
        log.warn("Admin request answered with 503: {}", e.getMessage());
        return Problems.response(ProblemType.STORE_UNAVAILABLE,
                "The database could not be reached; nothing was changed, retry shortly", 1);
    }

    @ExceptionHandler(SegmentStoreException.class)
    ResponseEntity<ProblemDetail> refreshFailed(SegmentStoreException e) {
        log.warn("Admin request answered with 503: {}", e.getMessage());
        return Problems.response(ProblemType.STORE_UNAVAILABLE,
                "The tag list could not be read from leaf_alloc; retry shortly", 1);
    }

    /** The parser's reason without its source excerpt, e.g. "Unexpected end-of-input". */
    private static String reasonOf(JacksonException e) {
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        int end = message.length();
        for (char stop : new char[] {':', '(', '\n'}) {
            int at = message.indexOf(stop);
            if (at > 0 && at < end) {
                end = at;
            }
        }
        String reason = message.substring(0, Math.min(end, MAX_PARSER_REASON)).strip();
        return reason.isEmpty() ? "unreadable" : reason;
    }

    private static String locationOf(JacksonException e) {
        if (e.getLocation() == null || e.getLocation().getLineNr() < 1) {
            return "";
        }
        return " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }
}
