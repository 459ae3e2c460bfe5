package org.leafid.client;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read into at most {@code limit} bytes: a longer one is cut off (the connection
 * dropped) and fails with a {@code size} {@link BadAnswerException}, so an endless body costs the
 * client the limit, not its heap. {@link #abort()} drops the connection of a body that is too slow.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

    private final long limit;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private volatile Flow.Subscription subscription;
    /** Guarded by this: the bytes so far, and how many. */
    private byte[] bytes = new byte[256];
    private int size;

    BoundedBody(long limit) {
        this.limit = limit;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
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

    /** Drops the connection: the answer took too long. */
    void abort() {
        Flow.Subscription held = subscription;
        if (held != null) {
            held.cancel();
        }
    }

    synchronized int received() {
        return size;
    }

    private void fail(BadAnswerException cause) {
        body.completeExceptionally(cause);
        abort();
    }
}
