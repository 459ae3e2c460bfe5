package org.leafid.autoconfigure.snowflake.kubernetes;

import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.snowflake.SnowflakeLayout;

/**
 * The {@code kubernetes} mode's worker id: a StatefulSet names its pods {@code {name}-{ordinal}} and runs
 * at most one pod of each ordinal, so the ordinal (shifted by {@code leaf.snowflake.kubernetes.offset},
 * for several StatefulSets on one layout) is an id no other pod of the StatefulSet holds.
 *
 * @param podName the pod name read
 * @param origin where it was read, for the messages: the key, or the {@code HOSTNAME} variable
 * @param ordinal the number after its last {@code -}, written as a StatefulSet writes it: decimal
 *     digits without a leading zero ({@code 0}, {@code 1}, {@code 12}), after a name that does not end
 *     in {@code -} itself; {@link Long#MAX_VALUE} when it has more digits than a long holds (no worker
 *     id anyway)
 */
public record PodOrdinal(String podName, String origin, long ordinal) {

    static final String POD_NAME_KEY = "leaf.snowflake.kubernetes.pod-name";
    static final String OFFSET_KEY = "leaf.snowflake.kubernetes.offset";

    /** Longer digit runs are read as "too large" rather than parsed. */
    private static final int MAX_DIGITS = 18;

    /**
     * The ordinal of the configured pod name, else of {@code HOSTNAME}.
     *
     * @param configured {@code leaf.snowflake.kubernetes.pod-name}, null or blank when unset
     * @param hostname the {@code HOSTNAME} environment variable, null when unset
     * @throws LeafConfigurationException naming the key when there is no name, or it has no ordinal
     */
    public static PodOrdinal of(String configured, String hostname) {
        boolean fromKey = configured != null && !configured.isBlank();
        String name = fromKey ? configured.strip() : hostname == null ? "" : hostname.strip();
        String origin = fromKey ? POD_NAME_KEY : "the HOSTNAME environment variable";
        if (name.isEmpty()) {
            throw new LeafConfigurationException(POD_NAME_KEY, "is unset and so is HOSTNAME: the kubernetes mode "
                    + "has no pod name to read a StatefulSet ordinal from.", "Run Leaf as a pod of a StatefulSet "
                    + "(Kubernetes sets HOSTNAME to the pod name), or set " + POD_NAME_KEY + " to a name such as "
                    + "leaf-0.");
        }
        int dash = name.lastIndexOf('-');
        String digits = dash < 0 ? "" : name.substring(dash + 1);
        // A StatefulSet writes the ordinal as a plain decimal: "leaf-07" or "leaf--1" (a minus sign
        // read past) were never written by one, and reading them as 7 or 1 could give two pods one id.
        if (dash < 1 || name.charAt(dash - 1) == '-' || digits.isEmpty()
                || !digits.chars().allMatch(c -> c >= '0' && c <= '9')
                || (digits.length() > 1 && digits.charAt(0) == '0')) {
            throw new LeafConfigurationException(POD_NAME_KEY, "gives the pod name '" + name + "' (from " + origin
                    + "), which does not end in a StatefulSet ordinal ('-' and a number without a sign or a leading "
                    + "zero, after a name: leaf-0, leaf-7, leaf-12).",
                    "Run Leaf in a StatefulSet, whose pods are named {name}-0, {name}-1 and so on; a Deployment's "
                            + "pods have no ordinal, so choose another leaf.snowflake.mode for them "
                            + "(docs/worker-id-modes.md).");
        }
        long ordinal = digits.length() > MAX_DIGITS ? Long.MAX_VALUE : Long.parseLong(digits);
        return new PodOrdinal(name, origin, ordinal);
    }

    /**
     * The ordinal plus {@code offset}.
     *
     * @throws LeafConfigurationException naming the offset when the sum is past the layout's worker ids
     */
    public int workerId(int offset, SnowflakeLayout layout) {
        long workerId = ordinal > Long.MAX_VALUE - offset ? Long.MAX_VALUE : ordinal + offset;
        if (workerId > layout.maxWorkerId()) {
            throw new LeafConfigurationException(OFFSET_KEY, "is " + offset + ", and with the ordinal of pod '"
                    + podName + "' (from " + origin + ") the worker id would be " + digitsOf(workerId) + ", past "
                    + layout.maxWorkerId() + ", the largest of layout " + layout.describe() + ".",
                    "Keep offset + replicas - 1 of the StatefulSet at most " + layout.maxWorkerId()
                            + " (fewer replicas or a lower offset), or choose a layout with more worker bits "
                            + "(leaf.snowflake.layout.worker-bits).");
        }
        return (int) workerId;
    }

    private static String digitsOf(long workerId) {
        return workerId == Long.MAX_VALUE ? "beyond " + Long.MAX_VALUE : Long.toString(workerId);
    }
}
