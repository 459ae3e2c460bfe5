package org.leafid.server.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP client for a server on 127.0.0.1, bounded in time. */
public final class Http {

    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final int port;

    public Http(int port) {
        this.port = port;
    }

    /** GET of a raw path (already percent-encoded where needed). */
    public HttpResponse<String> get(String rawPath) {
        return send("GET", rawPath);
    }

    /**
     * Any method, without a body, with extra headers as name, value pairs.
     */
    public HttpResponse<String> send(String method, String rawPath, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + rawPath))
                .timeout(TIMEOUT).method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            builder.headers(headers);
        }
        HttpRequest request = builder.build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + rawPath, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + rawPath, e);
        }
    }

    /** GET that must answer 200; returns the body as a long. */
    public long getId(String rawPath) {
        HttpResponse<String> response = get(rawPath);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + rawPath + " answered " + response.statusCode() + ": " + response.body());
        }
        return Long.parseLong(response.body().trim());
    }
}
