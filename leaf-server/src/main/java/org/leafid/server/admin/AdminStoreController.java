package org.leafid.server.admin;

import org.apache.ibatis.exceptions.PersistenceException;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Conditional;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/admin/store/declare}: an operator's word that the database {@code leaf.jdbc.url}
 * reaches is this fleet's store, although its name is not the one recorded (a copy under another
 * name is refused until then; see {@link StoreIdentityGuard}). The body names the database
 * ({@code {"database": "leaf_copy"}}) so that a url reaching another database than the operator
 * thinks changes nothing.
 */
@RestController
@RequestMapping("/api/admin/store")
@Conditional(AdminTokenConfigured.class)
class AdminStoreController {

    private final ObjectProvider<StoreIdentityGuard> guard;

    AdminStoreController(ObjectProvider<StoreIdentityGuard> guard) {
        this.guard = guard;
    }

    @PostMapping("/declare")
    StoreIdentityGuard.Declared declare(@RequestBody JsonNode body) {
        JsonNode database = body.get("database");
        if (database == null || !database.isString() || database.stringValue().isBlank()) {
            throw new InvalidRequestException("database", "'database' must name the database leaf.jdbc.url reaches"
                    + " (its name as DATABASE() or current_database() answers it)");
        }
        StoreIdentityGuard store = guard.getIfAvailable();
        if (store == null) {
            throw new InvalidRequestException(null, "this server has no database (leaf.jdbc.*): nothing to declare");
        }
        try {
            return store.declare(database.stringValue());
        } catch (StoreIdentityGuard.NotDeclared e) {
            throw new InvalidRequestException("database", e.getMessage());
        } catch (PersistenceException e) {
            throw new StoreUnreachableException("the database could not be declared", e);
        }
    }
}
