package org.leafid.testing.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The test database rule of CONTRIBUTING.md: the configured database, and any derived from it, is
 * created when missing with the tables of {@code sql/}; a user who may not create it gets a
 * message saying what to do.
 */
class TestDatabaseTest {

    private final TestDatabase configured = TestDatabase.get();

    @Test
    void preparingADatabaseThatDoesNotExistCreatesItWithTheTables() throws SQLException {
        String suffix = "new_" + UUID.randomUUID().toString().substring(0, 8);
        String name = configured.name() + "_" + suffix;
        assertThat(tables(name)).as("tables of %s before", name).isEmpty();
        assertThat(databaseExists(name)).as("%s exists before", name).isFalse();

        TestDatabase fresh = configured.derived(suffix);
        try {
            assertThat(fresh.name()).isEqualTo(name);
            assertThat(fresh.url()).isEqualTo(configured.url().replace("/" + configured.name(), "/" + name));
            assertThat(databaseExists(name)).as("%s exists after", name).isTrue();
            assertThat(tables(name)).containsExactlyInAnyOrder("id_alloc", "leaf_alloc", "leaf_high_water",
                    "leaf_shard_key", "leaf_shard_watermark", "leaf_workerid_alloc", "WORKER_NODE");
            assertThat(fresh.maxId("leaf-segment-test")).as("the sample tag's max_id").isEqualTo(1);
        } finally {
            fresh.drop();
        }
        assertThat(databaseExists(name)).as("%s exists after drop", name).isFalse();
    }

    @Test
    void aUserWhoMayNotCreateTheMissingDatabaseIsToldWhatToDo() throws SQLException {
        String user = "leaf_nocreate_" + UUID.randomUUID().toString().substring(0, 8);
        String name = configured.name() + "_denied";
        String url = configured.url().replace("/" + configured.name(), "/" + name);
        execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'secret-1'"); // USAGE only: no database rights
        try {
            assertThatThrownBy(() -> TestDatabase.prepare(url, user, "secret-1"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("The test database '" + name + "' could not be used (")
                    .hasMessageContaining("nor created by user '" + user + "' (")
                    .hasMessageContaining("Access denied")
                    .hasMessageEndingWith("create it (CREATE DATABASE " + name + ") and grant it to that user, "
                            + "or point LEAF_TEST_JDBC_URL at a database it may use");
            assertThat(databaseExists(name)).as("%s exists", name).isFalse();
        } finally {
            execute("DROP USER '" + user + "'@'%'");
        }
    }

    private boolean databaseExists(String name) throws SQLException {
        return !query("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", name).isEmpty();
    }

    private List<String> tables(String database) throws SQLException {
        return query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME",
                database);
    }

    private List<String> query(String sql, String parameter) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = configured.connect();
                PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, parameter);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
        }
        return values;
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = configured.connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
