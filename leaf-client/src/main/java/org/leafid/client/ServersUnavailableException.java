package org.leafid.client;

/**
 * No server gave a batch: each one asked failed, or all were backing off. {@code retryAtNanos} is
 * when the first of them may be asked again ({@link System#nanoTime()} scale).
 */
final class ServersUnavailableException extends Exception {

    private final long retryAtNanos;

    ServersUnavailableException(String message, long retryAtNanos, Throwable cause) {
        super(message, cause);
        this.retryAtNanos = retryAtNanos;
    }

    long retryAtNanos() {
        return retryAtNanos;
    }
}
