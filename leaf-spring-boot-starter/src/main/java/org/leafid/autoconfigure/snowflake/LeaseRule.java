package org.leafid.autoconfigure.snowflake;

import java.time.Duration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.Durations;

/**
 * The rule of every worker-id mode that leases its ids ({@code zk_recycle}, {@code redis}): an
 * instance stops issuing at most 2 x {@code leaf.snowflake.report-interval} after its last
 * heartbeat, and its id may go to another only after the lease, so the lease must leave a margin
 * beyond that.
 */
public final class LeaseRule {

    /** The least time between an instance stopping for want of heartbeats and its id going to another. */
    public static final Duration SAFETY_MARGIN = Duration.ofSeconds(10);

    private LeaseRule() {}

    /**
     * @param key the lease's key, named in the refusal
     * @throws LeafConfigurationException when {@code lease} is shorter than 2 x {@code reportInterval} + the margin
     */
    public static void requireCovers(String key, Duration lease, Duration reportInterval) {
        Duration least = reportInterval.multipliedBy(2).plus(SAFETY_MARGIN);
        if (lease.compareTo(least) < 0) {
            throw new LeafConfigurationException(key,
                    "is " + Durations.format(lease) + ", shorter than 2 x leaf.snowflake.report-interval ("
                            + Durations.format(reportInterval) + ") + " + Durations.format(SAFETY_MARGIN)
                            + " = " + Durations.format(least) + ": an id could be given to another instance "
                            + "while its holder still issues.",
                    "Set " + key + " to at least " + Durations.format(least)
                            + " or shorten leaf.snowflake.report-interval.");
        }
    }
}
