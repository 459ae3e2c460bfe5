package org.leafid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.GetConnectionTimeoutException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import org.junit.jupiter.api.Test;

/**
 * The classifier on the exceptions MySQL Connector/J and Druid throw (as they chain them); the
 * same failures against the real MariaDB are in {@code DatabaseTroubleAtStartTest}.
 */
class SqlFailuresTest {

    private static final String URL = "jdbc:mysql://db:3306/leaf?user=u&password=s3cret";

    @Test
    void refusedConnectionIsUnreachableAndNamesTheUrlWithoutPassword() {
        SQLException failure = new GetConnectionTimeoutException("wait millis 2000, active 0",
                new SQLNonTransientConnectionException("Communications link failure", "08S01",
                        new ConnectException("Connection refused")));

        assertThat(SqlFailures.classify(failure)).isEqualTo(SqlFailures.Kind.UNREACHABLE);
        assertThat(SqlFailures.describe(failure, URL))
                .isEqualTo("jdbc:mysql://db:3306/leaf?password=***&user=u refused the connection (Connection refused)");
        assertThat(SqlFailures.hint(failure, "sql/leaf_alloc.sql")).contains("check leaf.jdbc.url");
    }

    @Test
    void unknownHostAndTimeoutAreUnreachable() {
        SQLException unknownHost = new SQLNonTransientConnectionException("link failure", "08001",
                new UnknownHostException("nohost: Name or service not known"));
        SQLException timeout = new GetConnectionTimeoutException("wait millis 2000, active 0, creating 1");

        assertThat(SqlFailures.describe(unknownHost, URL)).startsWith("the host of jdbc:mysql://db:3306/")
                .endsWith("is unknown (nohost: Name or service not known)");
        assertThat(SqlFailures.classify(timeout)).isEqualTo(SqlFailures.Kind.UNREACHABLE);
        assertThat(SqlFailures.describe(timeout, URL)).contains("did not answer in time");
    }

    @Test
    void answersThatWillNotHealAreMisconfigurationsWithTheKeyToFix() {
        SQLException denied = new GetConnectionTimeoutException("wait millis 2000",
                new SQLInvalidAuthorizationSpecException("Access denied for user 'x'", "28000", 1045));
        SQLException unknownDatabase = new SQLSyntaxErrorException("Unknown database 'nope'", "42000", 1049);
        SQLException missingTable = new SQLSyntaxErrorException("Table 'a.leaf_alloc' doesn't exist", "42S02", 1146);

        assertThat(SqlFailures.classify(denied)).isEqualTo(SqlFailures.Kind.ACCESS_DENIED);
        assertThat(SqlFailures.hint(denied, "x.sql")).contains("leaf.jdbc.username and leaf.jdbc.password");
        assertThat(SqlFailures.classify(unknownDatabase)).isEqualTo(SqlFailures.Kind.UNKNOWN_DATABASE);
        assertThat(SqlFailures.hint(unknownDatabase, "x.sql")).contains("leaf.jdbc.url");
        assertThat(SqlFailures.classify(missingTable)).isEqualTo(SqlFailures.Kind.MISSING_TABLE);
        assertThat(SqlFailures.hint(missingTable, "sql/leaf_alloc.sql")).contains("sql/leaf_alloc.sql");
        assertThat(SqlFailures.describe(denied, URL)).endsWith(" answered: Access denied for user 'x'");
        assertThat(SqlFailures.Kind.MISSING_TABLE.misconfiguration()).isTrue();
        assertThat(SqlFailures.Kind.UNREACHABLE.misconfiguration()).isFalse();
    }

    @Test
    void aStoreOfSeveralIsNamedByItsOwnKeys() {
        SQLException denied = new SQLInvalidAuthorizationSpecException("Access denied for user 'leaf'", "28000", 1045);
        assertThat(SqlFailures.hint(denied, "x.sql", "leaf.jdbc.stores[2]"))
                .contains("leaf.jdbc.stores[2].username and leaf.jdbc.stores[2].password")
                .doesNotContain("leaf.jdbc.url", "leaf.jdbc.password");
    }

    @Test
    void duplicateKeyIsMysqlErrorOrStandardState() {
        assertThat(SqlFailures.duplicateKey(new SQLException("Duplicate entry", "23000", 1062))).isTrue();
        assertThat(SqlFailures.duplicateKey(new SQLException("unique", "23505"))).isTrue();
        assertThat(SqlFailures.duplicateKey(new SQLException("cannot be null", "23000", 1048))).isFalse();
    }

    @Test
    void theDriversMessageAboutAUrlItCannotReadIsNotShown() {
        String url = "jdbc:mysql://address=(host=h)(password=S3cr3t/db";
        SQLException failure = new SQLNonTransientConnectionException("Cannot load connection class because of "
                + "underlying exception: Malformed database URL, failed to parse the connection string near "
                + "'(password=S3cr3t'.", "08001");
        assertThat(SqlFailures.describe(failure, url)).doesNotContain("S3cr3t")
                .isEqualTo("jdbc:mysql: failed: the JDBC driver cannot read the url; check leaf.jdbc.url");
    }
}
