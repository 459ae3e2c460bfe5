package org.leafid.jdbc.shard;

import java.util.List;
import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** SQL on Leaf's own shard tables ({@code sql/leaf_shard.sql}); every value is a bound parameter. */
public interface LeafShardMapper {

    @Select("SELECT fingerprint FROM leaf_shard_key WHERE app_id = #{appId}")
    String fingerprint(@Param("appId") int appId);

    /** Every recorded mode, one row per app. */
    @Select("SELECT app_id, fingerprint FROM leaf_shard_key ORDER BY app_id")
    @ConstructorArgs({
        @Arg(column = "app_id", javaType = int.class),
        @Arg(column = "fingerprint", javaType = String.class)
    })
    List<RecordedMode> all();


    /** A row of {@code leaf_shard_key}: the app's mode, {@code plain} or an opaque key's fingerprint. */
    record RecordedMode(int appId, String fingerprint) {}

    /** A plain INSERT: a fingerprint already recorded fails on the primary key and is never overwritten. */
    @Insert("INSERT INTO leaf_shard_key(app_id, fingerprint) VALUES (#{appId}, #{fingerprint})")
    int insertFingerprint(@Param("appId") int appId, @Param("fingerprint") String fingerprint);

    @Select("SELECT issued_high FROM leaf_shard_watermark WHERE app_id = #{appId} AND shard_id = #{shardId}")
    Long issuedHigh(@Param("appId") int appId, @Param("shardId") int shardId);

    /**
     * Inserts the mark, or raises an existing one to {@code issued} and never lowers it, in one
     * statement. {@code ON DUPLICATE KEY UPDATE} with {@code GREATEST} over the stored column is
     * understood alike by MySQL, MariaDB and H2 in MySQL mode; the new value is the bound
     * parameter again rather than {@code VALUES(col)}, which MySQL 8.0.20 deprecated. PostgreSQL
     * says the same with {@code ON CONFLICT … DO UPDATE}.
     */
    @Insert("""
            INSERT INTO leaf_shard_watermark(app_id, shard_id, issued_high)
            VALUES (#{appId}, #{shardId}, #{issued})
            ON DUPLICATE KEY UPDATE issued_high = GREATEST(issued_high, #{issued})""")
    @Insert(databaseId = "postgresql", value = """
            INSERT INTO leaf_shard_watermark(app_id, shard_id, issued_high)
            VALUES (#{appId}, #{shardId}, #{issued})
            ON CONFLICT (app_id, shard_id)
            DO UPDATE SET issued_high = GREATEST(leaf_shard_watermark.issued_high, EXCLUDED.issued_high)""")
    int advance(@Param("appId") int appId, @Param("shardId") int shardId, @Param("issued") long issued);
}
