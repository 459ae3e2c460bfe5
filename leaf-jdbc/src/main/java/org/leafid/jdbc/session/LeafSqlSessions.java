package org.leafid.jdbc.session;

import javax.sql.DataSource;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.leafid.jdbc.reservation.HighWaterMapper;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.reservation.StoreIdentityMapper;
import org.leafid.jdbc.format.FormatDefinitionMapper;
import org.leafid.jdbc.segment.LeafAllocMapper;
import org.leafid.jdbc.segment.LeafAllocOneTripMapper;
import org.leafid.jdbc.shard.IdAllocMapper;
import org.leafid.jdbc.shard.IdAllocOneTripMapper;
import org.leafid.jdbc.shard.LeafShardMapper;
import org.leafid.jdbc.stores.FleetMapper;
import org.leafid.jdbc.worker.disposable.WorkerNodeMapper;
import org.leafid.jdbc.worker.mysql.WorkerIdAllocMapper;

/**
 * The one MyBatis {@link SqlSessionFactory} of Leaf's tables: every mapper
 * ({@code leaf_alloc}, {@code leaf_workerid_alloc}, shard mode's {@code id_alloc} and its
 * {@code leaf_shard_*} tables) registered on one configuration over one {@link DataSource}, shared
 * by the segment and shard stores, the admin API's writes and the {@code mysql} worker-id registry.
 * Plain MyBatis, no mybatis-spring: each statement runs in its own session, with transactions only
 * where a reservation needs UPDATE and SELECT together (or an app's 64 rows go in at once). In a
 * package of its own: it knows every table's mapper, and the tables' packages must not know it.
 */
public final class LeafSqlSessions {

    private LeafSqlSessions() {}

    /** The sessions of Leaf's own pool (the dialect read from its url) or of an application's DataSource. */
    public static SqlSessionFactory create(DataSource dataSource) {
        return create(dataSource, SqlDialect.of(dataSource));
    }

    /** The sessions on {@code dataSource}, with the statements of {@code dialect} where they differ. */
    public static SqlSessionFactory create(DataSource dataSource, SqlDialect dialect) {
        Configuration configuration = new Configuration(
                new Environment("leaf", new JdbcTransactionFactory(), dataSource));
        configuration.setDatabaseId(dialect.databaseId());
        configuration.addMapper(LeafAllocMapper.class);
        configuration.addMapper(WorkerIdAllocMapper.class);
        configuration.addMapper(WorkerNodeMapper.class);
        configuration.addMapper(IdAllocMapper.class);
        configuration.addMapper(LeafShardMapper.class);
        configuration.addMapper(HighWaterMapper.class);
        configuration.addMapper(StoreIdentityMapper.class);
        configuration.addMapper(FormatDefinitionMapper.class);
        configuration.addMapper(FleetMapper.class);
        if (dialect == SqlDialect.POSTGRESQL) {
            configuration.addMapper(LeafAllocOneTripMapper.class);
            configuration.addMapper(IdAllocOneTripMapper.class);
        }
        return new SqlSessionFactoryBuilder().build(configuration);
    }
}
