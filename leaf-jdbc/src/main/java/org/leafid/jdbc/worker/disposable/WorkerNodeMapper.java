package org.leafid.jdbc.worker.disposable;

import java.sql.Timestamp;
import org.apache.ibatis.annotations.Arg;
import org.apache.ibatis.annotations.ConstructorArgs;
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

    /** What tells a start's row from another's with the same {@code ID}; null when there is no such row. */
    @Select("SELECT HOST_NAME, PORT, CREATED FROM WORKER_NODE WHERE ID = #{id}")
    @ConstructorArgs({
        @Arg(column = "HOST_NAME", javaType = String.class),
        @Arg(column = "PORT", javaType = String.class),
        @Arg(column = "CREATED", javaType = Timestamp.class)
    })
    Start find(@Param("id") long id);

    /**
     * Puts a start's row back under its {@code ID} (a failover to a copy that lacked it): MySQL's
     * AUTO_INCREMENT moves past it; PostgreSQL's identity does not, and a later insert that meets it
     * fails and is tried again.
     */
    @Insert("""
            INSERT INTO WORKER_NODE(ID, HOST_NAME, PORT, TYPE, LAUNCH_DATE, MODIFIED, CREATED)
            VALUES (#{id}, #{start.hostName}, #{start.port}, #{type}, CURRENT_DATE, CURRENT_TIMESTAMP, #{start.created})""")
    int restore(@Param("id") long id, @Param("start") Start start, @Param("type") int type);

    /** One start's row, as it was written: its host, port and creation time (the database's clock). */
    record Start(String hostName, String port, Timestamp created) {}
}
