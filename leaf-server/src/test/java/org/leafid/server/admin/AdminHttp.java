package org.leafid.server.admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A bounded HTTP client for the admin API of a server on 127.0.0.1, and JSON reading of answers. */
final class AdminHttp {

    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final int port;
    private final String token;

    /** @param token what {@link #admin} presents as bearer token */
    AdminHttp(int port, String token) {
        this.port = port;
        this.token = token;
    }

    /** An admin request with the right token and a JSON body (none when null). */
    HttpResponse<String> admin(String method, String rawPath, String jsonBody) {
        return send(method, rawPath, "Bearer " + token, jsonBody);
    }

    HttpResponse<String> get(String rawPath) {
        return send("GET", rawPath, null, null);
    }

    /**
     * @param authorization the Authorization header, or null for none
     * @param jsonBody sent as {@code application/json}, or no body when null
     */
    HttpResponse<String> send(String method, String rawPath, String authorization, String jsonBody) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + rawPath))
                .timeout(TIMEOUT)
                .method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(jsonBody));
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + rawPath, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + rawPath, e);
        }
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    /** {@code {"tag":…,"step":…}} with the given extra members appended verbatim. */
    static String tagBody(String tag, int step, String extraMembers) {
        return "{\"tag\":\"" + tag + "\",\"step\":" + step + (extraMembers.isEmpty() ? "" : "," + extraMembers) + "}";
    }
}
