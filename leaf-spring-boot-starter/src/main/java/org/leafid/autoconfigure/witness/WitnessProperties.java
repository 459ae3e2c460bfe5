package org.leafid.autoconfigure.witness;

import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.LeafValues;
import org.leafid.autoconfigure.mode.FleetWitness;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.witness.*}.
 *
 * @param fleet where every server claims each segment and shard block before serving it, so that a
 *     restored or lagging database is caught exactly, whatever the data directories: {@code auto}
 *     (ZooKeeper when the worker-id mode uses it, else Redis when the worker-id mode uses it; not for
 *     shard mode's Redis buffer alone, which rides out a Redis outage on memory blocks), {@code none},
 *     {@code redis}, {@code zookeeper}
 * @param namespace the fleet's name in the witness's keys and paths; unset, {@code leaf.name}. Fleets
 *     that share a Redis or ZooKeeper and have tags of the same name need one each
 */
@ConfigurationProperties("leaf.witness")
public record WitnessProperties(@DefaultValue("auto") FleetWitness fleet, String namespace) {

    public WitnessProperties {
        if (namespace != null) {
            LeafValues.requireMatch("leaf.witness.namespace", namespace, LeafProperties.NAME,
                    "1-64 characters of letters, digits, '.', '_' or '-'");
        }
    }

    /** The namespace in effect: {@code leaf.name} when unset. */
    public String namespaceOr(String leafName) {
        return namespace == null ? leafName : namespace;
    }
}
