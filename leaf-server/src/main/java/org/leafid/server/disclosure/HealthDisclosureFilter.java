package org.leafid.server.disclosure;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Readiness and health as a caller without the admin token may read them: the health endpoint's
 * details (the reason of each component: "segment: the database … refused the connection") are
 * the indicators' own, written for operators, so every string of the answer passes through
 * {@link Disclosure#forAnonymous} before it leaves. The admin gets them whole (secrets hidden).
 * Probes read the status, which is kept; only health paths are buffered, never an ID endpoint.
 */
@Component
public final class HealthDisclosureFilter extends OncePerRequestFilter {

    /**
     * Health groups whose details only the admin reads: {@code stores} names each store of
     * {@code leaf.jdbc.stores} UP or DOWN with its failure; others learn only that one answers.
     */
    private static final Set<String> ADMIN_ONLY_DETAILS = Set.of("/actuator/health/stores");

    private final Disclosure disclosure;
    private final JsonMapper json = JsonMapper.builder().build();

    public HealthDisclosureFilter(Disclosure disclosure) {
        this.disclosure = disclosure;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = path(request);
        return !(path.equals("/actuator/health") || path.startsWith("/actuator/health/"));
    }

    private static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
    }

    /** Keeps every status, drops every {@code details}: what a group of admin-only details shows to others. */
    private static JsonNode withoutDetails(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove("details");
            for (String name : List.copyOf(object.propertyNames())) {
                withoutDetails(object.get(name));
            }
        }
        return node;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ContentCachingResponseWrapper buffered = new ContentCachingResponseWrapper(response);
        chain.doFilter(request, buffered);
        byte[] body = buffered.getContentAsByteArray();
        if (body.length > 0) {
            String shown = shown(request, new String(body, StandardCharsets.UTF_8));
            buffered.resetBuffer();
            byte[] bytes = shown.getBytes(StandardCharsets.UTF_8);
            buffered.getOutputStream().write(bytes);
        }
        buffered.copyBodyToResponse();
    }

    private String shown(HttpServletRequest request, String body) {
        try {
            JsonNode tree = json.readTree(body);
            if (ADMIN_ONLY_DETAILS.contains(path(request)) && !disclosure.toAdmin(request)) {
                tree = withoutDetails(tree);
            }
            return json.writeValueAsString(rewrite(tree, text -> disclosure.shown(request, text)));
        } catch (JacksonException notJson) {
            return disclosure.shown(request, body);
        }
    }

    private JsonNode rewrite(JsonNode node, UnaryOperator<String> shown) {
        if (node instanceof ObjectNode object) {
            for (String name : List.copyOf(object.propertyNames())) {
                object.set(name, rewrite(object.get(name), shown));
            }
            return object;
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, rewrite(array.get(i), shown));
            }
            return array;
        }
        return node.isString() ? StringNode.valueOf(shown.apply(node.asString())) : node;
    }
}
