package org.leafid.server.fault;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.leafid.server.fault.LoadRun.Mode;

/** What a stopped {@link LoadRun} did: its clients with their IDs, and counts by phase and instance. */
record LoadSummary(long durationMillis, List<LoadRun.Client> clients, long requests, Map<LoadSummary.Count, Long> counts) {

    /** What was counted: IDs of a mode ({@code error} false, label the mode) or errors of a kind. */
    record Count(String phase, String instance, boolean error, String label) {}


    long ids(Mode mode) {
        return clients.stream().mapToLong(c -> c.ids(mode).size()).sum();
    }

    long ids() {
        return ids(Mode.SEGMENT) + ids(Mode.SNOWFLAKE) + ids(Mode.SHARD);
    }

    /** Errors of every phase and instance together. */
    Map<String, Long> errors() {
        return errors(count -> true);
    }

    Map<String, Long> errors(String phase) {
        return errors(count -> count.phase().equals(phase));
    }

    Map<String, Long> errorsOf(String instance) {
        return errors(count -> count.instance().equals(instance));
    }

    /** IDs issued to requests started in a phase, for one mode (and one instance, unless null). */
    long ids(String phase, Mode mode, String instance) {
        return counts.entrySet().stream().filter(e -> !e.getKey().error() && e.getKey().phase().equals(phase)
                && e.getKey().label().equals(mode.name()) && (instance == null || e.getKey().instance().equals(instance)))
                .mapToLong(Map.Entry::getValue).sum();
    }

    long ids(String phase, Mode mode) {
        return ids(phase, mode, null);
    }

    private Map<String, Long> errors(Predicate<Count> which) {
        Map<String, Long> errors = new TreeMap<>();
        counts.forEach((count, n) -> {
            if (count.error() && which.test(count)) {
                errors.merge(count.label(), n, Long::sum);
            }
        });
        return errors;
    }
}
