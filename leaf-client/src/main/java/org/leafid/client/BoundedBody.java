package org.leafid.client;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The body of one response, read into at most the limit its status allows: a longer one is cut off
 * (the connection dropped) and fails with a {@code size} {@link BadAnswerException}, so an endless
 * body costs the client the limit, not its heap. {@link #expire} cuts off a body that is not complete
 * by the request's deadline; made before the request is sent, it can be expired before the response
 * even starts, and a body that starts after that is dropped at once.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

    private final long okLimit;
    private final long otherLimit;
    private volatile long limit;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private volatile Flow.Subscription subscription;
    /** Guarded by this: the bytes so far, and how many. */
    private byte[] bytes = new byte[256];
    private int size;

    /**
     * @param okLimit the most bytes of a 200 body
     * @param otherLimit the most bytes of any other body (a problem)
     */
    BoundedBody(long okLimit, long otherLimit) {
        this.okLimit = okLimit;
        this.otherLimit = otherLimit;
    }

    /** This body, for a response of {@code status}: the handler of the request it was made for. */
    HttpResponse.BodySubscriber<byte[]> forStatus(int status) {
        limit = status == 200 ? okLimit : otherLimit;
        return this;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (body.isDone()) {
            subscription.cancel(); // expired before the response started
            return;
        }
        subscription.request(Long.MAX_VALUE); // memory is bounded by the limit, not by demand
    }

    @Override
    public synchronized void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return; // cut off: what still arrives is dropped
        }
        for (ByteBuffer buffer : buffers) {
            int more = buffer.remaining();
            if (size + (long) more > limit) {
                fail(new BadAnswerException("size", "the body is longer than the " + limit
                        + " bytes the IDs asked for can take"));
                return;
            }
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(size + more, 2L * bytes.length)));
            }
            buffer.get(bytes, size, more);
            size += more;
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public synchronized void onComplete() {
        body.complete(Arrays.copyOf(bytes, size));
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    /**
     * The request's deadline passed: unless the body is complete, it fails with a {@code deadline}
     * {@link BadAnswerException} and the connection is dropped.
     */
    synchronized void expire(Duration timeout) {
        if (!body.isDone()) {
            fail(new BadAnswerException("deadline", "the body was not complete within " + timeout.toMillis()
                    + " ms (" + size + " bytes came)"));
        }
    }

    private void fail(BadAnswerException cause) {
        body.completeExceptionally(cause);
        Flow.Subscription held = subscription;
        if (held != null) {
            held.cancel();
        }
    }
}
