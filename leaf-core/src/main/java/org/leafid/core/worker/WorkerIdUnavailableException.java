package org.leafid.core.worker;

import org.leafid.core.LeafException;

/** The worker id is not held, or its time reservation has run out: no snowflake ID is safe. */
public class WorkerIdUnavailableException extends LeafException {

    public WorkerIdUnavailableException(String reason) {
        super(reason);
    }

    public WorkerIdUnavailableException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
