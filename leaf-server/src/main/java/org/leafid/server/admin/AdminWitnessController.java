package org.leafid.server.admin;

import java.util.Map;
import org.leafid.autoconfigure.mode.FleetWitnessChoice;
import org.leafid.core.segment.FleetReservationWitness;
import org.leafid.core.witness.WitnessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Conditional;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/admin/witness/release}: an operator's word that of two databases found answering
 * for one row at once (see {@link org.leafid.core.segment.FoundTwiceException}), the one that is not
 * this fleet's store was stopped, so the fleet's witness may answer claims of the key again. The body
 * names the table and the key ({@code {"table": "leaf_alloc", "key": "orders"}}; shard rows are
 * {@code "id_alloc"}, {@code "<app>:<shard>"}); the answer says whether the key was found twice.
 */
@RestController
@RequestMapping("/api/admin/witness")
@Conditional(AdminTokenConfigured.class)
class AdminWitnessController {

    private static final Logger log = LoggerFactory.getLogger(AdminWitnessController.class);

    private final ObjectProvider<FleetReservationWitness> witness;

    AdminWitnessController(@Qualifier(FleetWitnessChoice.BEAN) ObjectProvider<FleetReservationWitness> witness) {
        this.witness = witness;
    }

    @PostMapping("/release")
    Map<String, Object> release(@RequestBody JsonNode body) {
        JsonNode named = body.get("table");
        String table = named == null ? "leaf_alloc" : named.isString() ? named.stringValue() : "";
        if (!table.equals("leaf_alloc") && !table.equals("id_alloc")) {
            throw new InvalidRequestException("table", "'table' is leaf_alloc (segment tags and formats, the"
                    + " default) or id_alloc (shard apps)");
        }
        JsonNode key = body.get("key");
        if (key == null || !key.isString() || key.stringValue().isBlank()) {
            throw new InvalidRequestException("key", "'key' must name the tag (leaf_alloc) or the app and shard"
                    + " as app:shard (id_alloc) that was found twice");
        }
        FleetReservationWitness fleet = witness.getIfAvailable();
        if (fleet == null) {
            throw new InvalidRequestException(null, "this server has no fleet witness (leaf.witness.fleet):"
                    + " nothing is found twice without one");
        }
        FleetReservationWitness ofTable = table.equals("leaf_alloc") ? fleet : fleet.forTable(table);
        boolean released;
        try {
            released = ofTable.release(key.stringValue());
        } catch (WitnessException e) {
            throw new StoreUnreachableException("the fleet's witness could not release " + table + " '"
                    + key.stringValue() + "'", e);
        }
        if (released) {
            log.warn("Released by an operator: {} '{}', found twice, is claimed again; the database that was not"
                    + " this fleet's store must be stopped", table, key.stringValue());
        }
        return Map.of("table", table, "key", key.stringValue(), "released", released);
    }
}
