package org.leafid.jdbc.worker.disposable;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/**
 * SQL on uid-generator's {@code WORKER_NODE} (the {@code disposable} mode); every value is a bound
 * parameter. The table's name and columns are uid-generator's, upper case as its script has them
 * (MySQL on Linux compares table names case-sensitively).
 */
public interface WorkerNodeMapper {

    /** One row per start, as uid-generator's assigner writes it. */
    @Insert("""
            INSERT INTO WORKER_NODE(HOST_NAME, PORT, TYPE, LAUNCH_DATE, MODIFIED, CREATED)
            VALUES (#{hostName}, #{port}, #{type}, CURRENT_DATE, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)""")
    int insert(@Param("hostName") String hostName, @Param("port") String port, @Param("type") int type);

    /**
     * The {@code ID} the last insert of this connection got: call in the same session. On PostgreSQL
     * the identity column's sequence, whose {@code lastval()} is per session too.
     */
    @Select("SELECT LAST_INSERT_ID()")
    @Select(databaseId = "postgresql", value = "SELECT lastval()")
    long lastInsertId();
}
