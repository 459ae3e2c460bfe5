package org.leafid.server.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One row of {@code RELIABILITY.md}: filled in by a scenario as it measures, so that a scenario
 * that fails half-way still shows what it saw.
 */
final class ScenarioResult {

    final String name;
    /** The scenario method's order in the suite, and when it started: the report's order. */
    final int order;
    final long startedNanos;
    String load = "—";
    String fault = "—";
    long idsChecked;
    /** -1 until the IDs were checked. */
    long duplicates = -1;
    String errors = "—";
    String recovery = "—";
    final List<String> notes = new ArrayList<>();
    long wallMillis;
    /** Null when every check passed. */
    String failure;

    ScenarioResult(String name, int order, long startedNanos) {
        this.name = name;
        this.order = order;
        this.startedNanos = startedNanos;
    }

    /** The results in the suite's order: by method order, then (in a group) as they started. */
    static List<ScenarioResult> inOrder(List<ScenarioResult> results) {
        synchronized (results) {
            return results.stream().sorted(java.util.Comparator.comparingInt((ScenarioResult r) -> r.order)
                    .thenComparingLong(r -> r.startedNanos)).toList();
        }
    }

    void note(String format, Object... arguments) {
        notes.add(String.format(Locale.ROOT, format, arguments));
    }

    /** "1,234 IDs/s (567 requests/s), 24 clients, 30.0 s". */
    static String load(LoadSummary summary) {
        double seconds = summary.durationMillis() / 1000.0;
        return String.format(Locale.ROOT, "%,.0f IDs/s (%,.0f requests/s), %d clients, %.1f s",
                summary.ids() / seconds, summary.requests() / seconds, summary.clients().size(), seconds);
    }

    /** "503 store-unavailable ×12, …" or "none". */
    static String errors(Map<String, Long> errors) {
        if (errors.isEmpty()) {
            return "none";
        }
        return errors.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s ×%,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining("; "));
    }

    static String millis(long millis) {
        return millis < 10_000 ? String.format(Locale.ROOT, "%,d ms", millis)
                : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
