package org.leafid.core.worker;


/**
 * Thrown by a {@link ReservationSink} when the worker id is no longer this instance's (a
 * recycling registry gave it to another instance): the holder stops issuing with it at once
 * and registers again.
 */
public final class WorkerIdLostException extends WorkerIdUnavailableException {

    public WorkerIdLostException(String reason) {
        super(reason);
    }
}
