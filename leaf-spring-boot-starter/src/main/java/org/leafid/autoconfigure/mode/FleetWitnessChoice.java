package org.leafid.autoconfigure.mode;

import org.leafid.autoconfigure.LeafSwitchCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The fleet witness in effect and why: the one place of the {@code auto} rule, read by the conditions
 * that make the witness and by the database's identity guard (which leaves {@code leaf_alloc} rows to
 * the witness's exact mark when there is one).
 *
 * @param witness {@link FleetWitness#NONE}, {@link FleetWitness#REDIS} or {@link FleetWitness#ZOOKEEPER}
 * @param reason how it was chosen, for the start-up log
 */
public record FleetWitnessChoice(FleetWitness witness, String reason) {

    public static FleetWitnessChoice of(Environment environment) {
        FleetWitness configured = Binder.get(environment).bind("leaf.witness.fleet", FleetWitness.class)
                .orElse(FleetWitness.AUTO);
        if (configured != FleetWitness.AUTO) {
            return new FleetWitnessChoice(configured, "leaf.witness.fleet=" + configured.key());
        }
        WorkerIdMode mode = LeafSwitchCondition.isOn(environment, "leaf.snowflake.enable")
                ? WorkerIdModeCondition.choice(environment).mode() : null;
        if (mode != null && mode.keptInZookeeper()) {
            return new FleetWitnessChoice(FleetWitness.ZOOKEEPER,
                    "leaf.witness.fleet=auto and worker ids from ZooKeeper (" + mode.key() + ")");
        }
        if (mode != null && mode.keptInRedis()) {
            return new FleetWitnessChoice(FleetWitness.REDIS, "leaf.witness.fleet=auto and worker ids from Redis");
        }
        // Not for shard mode's Redis buffer alone: it is there to ride out a Redis outage on memory blocks,
        // and a witness in Redis would turn every Redis outage into refusals (leaf.witness.fleet=redis says so).
        return new FleetWitnessChoice(FleetWitness.NONE, "leaf.witness.fleet=auto and no worker ids from ZooKeeper"
                + " or Redis");
    }

    /** The name of the fleet witness's bean, which the segment allocator looks for. */
    public static final String BEAN = "fleetReservationWitness";

    /** Whether a fleet-wide witness is on. */
    public boolean fleetWide() {
        return witness != FleetWitness.NONE;
    }
}
