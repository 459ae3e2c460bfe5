package org.leafid.server.admin;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.leafid.autoconfigure.jdbc.SeveralStores;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.jdbc.stores.Numbering;
import org.leafid.jdbc.stores.StoreFleet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Conditional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The numbering of several stores ({@code leaf.jdbc.stores}): {@code GET /api/admin/stores} shows
 * it; {@code POST /api/admin/stores/renumber} adds the stores listed as joining and retires those
 * the body names ({@code {"retire": [2]}}), under load, above every number reserved before (see
 * docs/databases.md, "Several stores").
 */
@RestController
@RequestMapping("/api/admin/stores")
@Conditional(AdminTokenConfigured.class)
class AdminRenumberController {

    private final ObjectProvider<SeveralStores> stores;

    AdminRenumberController(ObjectProvider<SeveralStores> stores) {
        this.stores = stores;
    }

    @GetMapping
    Map<String, Object> numbering() {
        return view(severalStores().numbering());
    }

    @PostMapping("/renumber")
    Map<String, Object> renumber(@RequestBody(required = false) JsonNode body) {
        Set<Integer> retire = new TreeSet<>();
        if (body != null && !body.isNull()) {
            if (!body.isObject() || body.propertyNames().stream().anyMatch(name -> !name.equals("retire"))) {
                throw new InvalidRequestException(null, "The body is empty or {\"retire\": [k, ...]}: the places in"
                        + " leaf.jdbc.stores of the stores to retire");
            }
            JsonNode places = body.get("retire");
            if (places != null && !places.isArray()) {
                throw new InvalidRequestException("retire", "'retire' is a list of places in leaf.jdbc.stores");
            }
            if (places != null) {
                for (JsonNode place : places) {
                    if (!place.isInt() || place.intValue() < 0 || place.intValue() >= Numbering.MOST_STORES) {
                        throw new InvalidRequestException("retire", "'retire' holds places 0.."
                                + (Numbering.MOST_STORES - 1) + " in leaf.jdbc.stores: " + place);
                    }
                    retire.add(place.intValue());
                }
            }
        }
        try {
            return view(severalStores().renumber(retire));
        } catch (StoreFleet.RenumberingRefused refused) {
            if (refused.getCause() == null) {
                throw new InvalidRequestException("retire", refused.getMessage());
            }
            throw new SegmentStoreException(null, "the stores were not renumbered: " + refused.getMessage(), refused);
        }
    }

    private SeveralStores severalStores() {
        SeveralStores several = stores.getIfAvailable();
        if (several == null) {
            throw new InvalidRequestException(null, "this server has one database (leaf.jdbc.url), not several"
                    + " stores (leaf.jdbc.stores): there is nothing to renumber");
        }
        return several;
    }

    private static Map<String, Object> view(Numbering numbering) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("generation", numbering.generation());
        view.put("base", numbering.base());
        view.put("stripeWidth", numbering.width());
        view.put("members", numbering.places());
        return view;
    }
}
