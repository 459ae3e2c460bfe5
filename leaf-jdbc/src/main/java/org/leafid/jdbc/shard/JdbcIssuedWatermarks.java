package org.leafid.jdbc.shard;

import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.shard.IssuedWatermarks;
import org.leafid.core.shard.ShardStoreException;
import org.leafid.jdbc.PoolUrls;
import org.leafid.jdbc.SqlFailures;

/**
 * {@link IssuedWatermarks} in {@code leaf_shard_watermark}, one row per (app, shard), created on
 * the first advance. An advance is one upsert that keeps the greater value, so concurrent advances
 * from several instances leave the highest of them, whatever their order.
 */
public final class JdbcIssuedWatermarks implements IssuedWatermarks {

    private final SqlSessionFactory sessions;
    private final String url;

    /** @param sessions Leaf's one session factory ({@code LeafSqlSessions}) */
    public JdbcIssuedWatermarks(SqlSessionFactory sessions) {
        this.sessions = sessions;
        this.url = PoolUrls.of(sessions);
    }

    @Override
    public long highest(int appId, int shardId) {
        try (SqlSession session = sessions.openSession(true)) {
            Long high = session.getMapper(LeafShardMapper.class).issuedHigh(appId, shardId);
            return high == null ? 0 : high;
        } catch (PersistenceException e) {
            throw failure(e, "read", appId, shardId);
        }
    }

    @Override
    public void advance(int appId, int shardId, long issued) {
        if (issued < 0) {
            throw new IllegalArgumentException("an issued index is never negative: " + issued);
        }
        try (SqlSession session = sessions.openSession(true)) {
            session.getMapper(LeafShardMapper.class).advance(appId, shardId, issued);
        } catch (PersistenceException e) {
            throw failure(e, "advance", appId, shardId);
        }
    }

    private ShardStoreException failure(PersistenceException e, String action, int appId, int shardId) {
        return new ShardStoreException("Could not " + action + " the issued watermark of app " + appId + " shard "
                + shardId + " in leaf_shard_watermark: " + SqlFailures.describe(e, url)
                + SqlFailures.hint(e, ShardKeyFingerprints.TABLE_SCRIPT), e);
    }
}
