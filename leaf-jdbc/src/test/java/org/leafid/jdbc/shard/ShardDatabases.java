package org.leafid.jdbc.shard;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.leafid.jdbc.EmbeddedDatabase;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * Pools on the two databases the shard tables are tested on, each with EMPTY shard tables: the
 * MySQL-protocol test database's {@code _shard} sibling (tables from {@code sql/}, so
 * {@code id_alloc} is exactly their DDL), and an embedded H2 file database with the schema the
 * server creates (whose sample app is removed here). Plus plain JDBC on a pool, as an operator's
 * client would edit rows.
 */
final class ShardDatabases {

    private ShardDatabases() {}

    static DruidDataSource mariaDb() throws SQLException {
        return emptied(TestDatabase.get().derived("shard").newPool());
    }

    /** The PostgreSQL test database's {@code _shard} sibling, with the tables of {@code sql/postgresql/}. */
    static DruidDataSource postgres() throws SQLException {
        return emptied(TestDatabase.postgres().derived("shard").newPool());
    }

    static DruidDataSource h2(Path dataDir) throws Exception {
        DruidDataSource pool = h2WithoutSchema(dataDir);
        try (Connection connection = pool.getConnection()) {
            EmbeddedDatabase.createSchema(connection);
        } catch (Exception e) {
            pool.close();
            throw e;
        }
        return emptied(pool);
    }

    static DruidDataSource h2WithoutSchema(Path dataDir) {
        DruidDataSource pool = new DruidDataSource();
        pool.setUrl(EmbeddedDatabase.url(dataDir));
        pool.setUsername("sa");
        pool.setPassword("");
        pool.setValidationQuery("SELECT 1");
        return pool;
    }

    private static DruidDataSource emptied(DruidDataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("DELETE FROM id_alloc");
            statement.executeUpdate("DELETE FROM leaf_shard_key");
            statement.executeUpdate("DELETE FROM leaf_shard_watermark");
            statement.executeUpdate("DELETE FROM leaf_high_water WHERE name LIKE 'id_alloc:%'");
        } catch (SQLException e) {
            pool.close();
            throw e;
        }
        return pool;
    }

    static void insertRow(DruidDataSource pool, int appId, String appName, int shardId, long maxId, int step,
            long maxLimitId) {
        update(pool, "INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, description, max_limit_id) "
                + "VALUES (?, ?, ?, ?, ?, 'test', ?)", appId, appName, maxId, shardId, step, maxLimitId);
    }

    static void update(DruidDataSource pool, String sql, Object... parameters) {
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** A number of one row and column, e.g. {@code SELECT COUNT(*) ...}. */
    static long number(DruidDataSource pool, String sql, Object... parameters) {
        try (Connection connection = pool.getConnection();
                PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                select.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("no row: " + sql);
                }
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static long maxId(DruidDataSource pool, int appId, int shardId) {
        return number(pool, "SELECT max_id FROM id_alloc WHERE app_id = ? AND shard_id = ?", appId, shardId);
    }
}
