package org.leafid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * Each table is defined once per dialect ({@code sql/} for MySQL, MariaDB and the embedded H2,
 * {@code sql/postgresql/} for PostgreSQL); this test holds the definitions to one shape: on H2,
 * MariaDB and PostgreSQL, as the scripts make them, every table has the same columns (name, JDBC
 * type, length of text, nullability, generated or not), the same primary key and the same unique
 * keys. A column added to one script and forgotten in the other fails here.
 */
class TableDefinitionsTest {

    /** Every table Leaf reads or writes, as each script names it. */
    private static final List<String> TABLES = List.of("leaf_alloc", "id_alloc", "leaf_shard_key",
            "leaf_shard_watermark", "leaf_high_water", "leaf_workerid_alloc", "worker_node");

    private static TestDatabase mysql;
    private static TestDatabase postgres;

    @BeforeAll
    static void createTheTablesFromTheScripts() {
        mysql = TestDatabase.get().derived("tables");
        postgres = TestDatabase.postgres().derived("tables");
    }

    @AfterAll
    static void dropTheScratchDatabases() {
        mysql.drop();
        postgres.drop();
    }

    @Test
    void everyTableHasOneShapeOnH2MariaDbAndPostgreSql() throws Exception {
        Map<String, String> h2 = shapes(h2WithEveryScript());
        Map<String, String> onMysql;
        try (Connection connection = mysql.connect()) {
            onMysql = shapes(connection);
        }
        Map<String, String> onPostgres;
        try (Connection connection = postgres.connect()) {
            onPostgres = shapes(connection);
        }

        assertThat(h2.keySet()).containsExactlyElementsOf(new TreeSet<>(TABLES));
        for (String table : TABLES) {
            assertThat(onMysql.get(table)).as("%s on MariaDB (sql/) against H2 (sql/, MySQL mode)", table)
                    .isEqualTo(h2.get(table));
            assertThat(onPostgres.get(table)).as("%s on PostgreSQL (sql/postgresql/) against MariaDB (sql/)", table)
                    .isEqualTo(onMysql.get(table));
        }
    }

    @Test
    void theEmbeddedDatabaseIsMadeByTheSameScripts() throws Exception {
        Map<String, String> scripts = shapes(h2WithEveryScript());
        try (Connection embedded = DriverManager.getConnection(
                "jdbc:h2:mem:embedded;MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1")) {
            EmbeddedDatabase.createSchema(embedded);
            EmbeddedDatabase.createSchema(embedded); // every start runs it again
            Map<String, String> made = shapes(embedded);
            assertThat(made.keySet()).containsExactly("id_alloc", "leaf_alloc", "leaf_high_water", "leaf_shard_key",
                    "leaf_shard_watermark");
            made.forEach((table, shape) -> assertThat(shape).as(table).isEqualTo(scripts.get(table)));
        }
    }

    /**
     * An operator may run the scripts again (a deploy that runs them all, a page followed twice):
     * each keeps the table it finds and its rows, on MariaDB and on PostgreSQL. uid-generator's
     * {@code sql/worker_node.sql} is its DDL exactly and runs once; PostgreSQL's version of it is ours.
     */
    @Test
    void everyScriptRunsAgainKeepingTheTablesAndTheirRows() throws Exception {
        for (TestDatabase database : List.of(mysql, postgres)) {
            database.update("DELETE FROM id_alloc WHERE app_id = 7");
            database.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id) VALUES (7, 'again', 5000, 0)");
            database.update("UPDATE leaf_alloc SET max_id = 4200 WHERE biz_tag = 'leaf-segment-test'");
            List<String> scripts = new ArrayList<>(List.of("leaf_alloc.sql", "id_alloc.sql", "leaf_shard.sql",
                    "leaf_high_water.sql", "leaf_workerid_alloc.sql"));
            if (database.dialect() == SqlDialect.POSTGRESQL) {
                scripts.add("worker_node.sql");
            }
            try (Connection connection = database.connect()) {
                Map<String, String> before = shapes(connection);
                for (String script : scripts) {
                    TableScripts.run(connection, database.dialect(), script);
                }
                assertThat(shapes(connection)).as("%s after %s again", database.dialect(), scripts).isEqualTo(before);
            }
            assertThat(database.number("SELECT max_id FROM id_alloc WHERE app_id = 7 AND shard_id = 0"))
                    .isEqualTo(5000);
            assertThat(database.maxId("leaf-segment-test")).isEqualTo(4200);
        }
    }

    private static Connection h2WithEveryScript() throws SQLException {
        Connection connection = DriverManager.getConnection(
                "jdbc:h2:mem:scripts;MODE=MySQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        if (shapes(connection).isEmpty()) {
            for (String script : List.of("leaf_alloc.sql", "id_alloc.sql", "leaf_shard.sql", "leaf_high_water.sql",
                    "leaf_workerid_alloc.sql", "worker_node.sql")) {
                TableScripts.run(connection, SqlDialect.MYSQL, script);
            }
        }
        return connection;
    }

    /** Each of Leaf's tables in the connection's database, described in words that do not depend on the database. */
    private static Map<String, String> shapes(Connection connection) throws SQLException {
        Map<String, String> shapes = new TreeMap<>();
        DatabaseMetaData metaData = connection.getMetaData();
        String catalog = connection.getCatalog();
        String schema = connection.getSchema();
        try (ResultSet tables = metaData.getTables(catalog, schema, "%", new String[] {"TABLE"})) {
            while (tables.next()) {
                String name = tables.getString("TABLE_NAME");
                String table = name.toLowerCase(Locale.ROOT);
                if (TABLES.contains(table)) {
                    shapes.put(table, shape(metaData, catalog, schema, name));
                }
            }
        }
        return shapes;
    }

    private static String shape(DatabaseMetaData metaData, String catalog, String schema, String table)
            throws SQLException {
        List<String> columns = new ArrayList<>();
        try (ResultSet column = metaData.getColumns(catalog, schema, table, "%")) {
            while (column.next()) {
                int type = column.getInt("DATA_TYPE");
                String text = type == Types.VARCHAR ? "(" + column.getInt("COLUMN_SIZE") + ")" : "";
                columns.add(column.getString("COLUMN_NAME").toLowerCase(Locale.ROOT) + " " + typeName(type) + text
                        + (column.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls ? " not null" : " null")
                        + ("YES".equals(column.getString("IS_AUTOINCREMENT")) ? " generated" : ""));
            }
        }
        TreeMap<Short, String> primaryKey = new TreeMap<>();
        try (ResultSet key = metaData.getPrimaryKeys(catalog, schema, table)) {
            while (key.next()) {
                primaryKey.put(key.getShort("KEY_SEQ"), key.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        TreeMap<String, TreeSet<String>> uniqueKeys = new TreeMap<>();
        try (ResultSet index = metaData.getIndexInfo(catalog, schema, table, true, false)) {
            while (index.next()) {
                String column = index.getString("COLUMN_NAME");
                if (column != null) {
                    uniqueKeys.computeIfAbsent(index.getString("INDEX_NAME").toLowerCase(Locale.ROOT), k -> new TreeSet<>())
                            .add(column.toLowerCase(Locale.ROOT));
                }
            }
        }
        // Index names differ (PRIMARY, <table>_pkey, primary_key_…): keep the column sets only, the
        // primary key's among them.
        TreeSet<String> uniqueColumnSets = new TreeSet<>();
        uniqueKeys.values().forEach(set -> uniqueColumnSets.add(String.join(",", set)));
        return "columns " + columns + "; primary key " + primaryKey.values() + "; unique " + uniqueColumnSets;
    }

    private static String typeName(int type) {
        return switch (type) {
            case Types.INTEGER -> "integer";
            case Types.BIGINT -> "bigint";
            case Types.VARCHAR -> "varchar";
            case Types.TIMESTAMP -> "timestamp";
            case Types.DATE -> "date";
            default -> "jdbc type " + type;
        };
    }
}
