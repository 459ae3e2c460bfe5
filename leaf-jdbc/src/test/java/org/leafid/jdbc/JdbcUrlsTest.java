package org.leafid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every place a password can sit in a url Connector/J accepts is hidden; what is not a secret stays. */
class JdbcUrlsTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "jdbc:mysql://u:S3cr3t@h:3306/db",
        "jdbc:mysql://h:3306/db?password=S3cr3t&useSSL=false",
        "jdbc:mysql://h/db?trustCertificateKeyStorePassword=S3cr3t",
        "jdbc:mysql://address=(host=h)(port=3307)(user=u)(password=S3cr3t)/db",
        "jdbc:mysql://(host=h,password=S3cr3t)/db",
        "jdbc:mysql://[(host=h,user=u,password=S3cr3t),(host=h2,pwd=S3cr3t)]/db",
        "jdbc:mysql://h1:3306,u2:S3cr3t@h2/db",
        "jdbc:mysql:replication://h1,address=(host=h2)(password=S3cr3t)/db",
        "jdbc:mysql://h/db?password1=S3cr3t",
        "jdbc:mysql://h/db?password2=S3cr3t",
        "jdbc:mysql://h/db?password3=S3cr3t",
        "jdbc:mysql://h/db?PASSWORD=S3cr3t",
        "jdbc:mysql://h/db?password=S3%63r3t",
        "jdbc:mysql://address=(host=h)(password=S3cr3t/db",
        "jdbc:mysql://h/db?password=%zzS3cr3t",
        "jdbc:h2:file:/srv/leaf/data;USER=sa;PASSWORD=S3cr3t",
        "jdbc:postgresql://h/db?password=S3cr3t",
        "mysql://u:S3cr3t@h/db"})
    void noFormShowsThePassword(String url) {
        assertThat(JdbcUrls.withoutPassword(url)).doesNotContain("S3cr3t", "S3%63r3t", "S3cr");
    }

    /** The same forms, and PostgreSQL's {@code user:secret@host}: a text that quotes the url loses each secret. */
    @ParameterizedTest
    @ValueSource(strings = {
        "jdbc:mysql://u:S3cr3t@h:3306/db",
        "jdbc:mysql://h:3306/db?password=S3cr3t&useSSL=false",
        "jdbc:mysql://h/db?trustCertificateKeyStorePassword=S3cr3t",
        "jdbc:mysql://address=(host=h)(port=3307)(user=u)(password=S3cr3t)/db",
        "jdbc:mysql://(host=h,password=S3cr3t)/db",
        "jdbc:mysql://[(host=h,user=u,password=S3cr3t),(host=h2,pwd=S3cr3t)]/db",
        "jdbc:mysql://h1:3306,u2:S3cr3t@h2/db",
        "jdbc:mysql://h/db?PASSWORD=S3cr3t",
        "jdbc:h2:file:/srv/leaf/data;USER=sa;PASSWORD=S3cr3t",
        "jdbc:postgresql://h/db?password=S3cr3t",
        "jdbc:postgresql://h/db?sslpassword=S3cr3t&ssl=true",
        "jdbc:postgresql://leaf:S3cr3t@127.0.0.1:5432/db",
        "jdbc:postgresql://leaf:S3cr3t@h1:5432,h2:5433/db?targetServerType=primary",
        "jdbc:postgresql://leaf:S3%63r3t@h/db"})
    void everySecretOfAUrlIsMaskedInATextThatQuotesIt(String url) {
        String text = "java.net.UnknownHostException: " + url + " / S3cr3t";
        assertThat(JdbcUrls.masked(text, url)).doesNotContain("S3cr3t", "S3%63r3t").contains("***");
    }

    @org.junit.jupiter.api.Test
    void aUrlWithoutSecretsMasksNothing() {
        String url = "jdbc:postgresql://127.0.0.1:5432/leaf?targetServerType=primary";
        assertThat(JdbcUrls.secrets(url)).isEmpty();
        assertThat(JdbcUrls.masked("Connection to 127.0.0.1:5432 refused", url))
                .isEqualTo("Connection to 127.0.0.1:5432 refused");
    }

    @Test
    void theDriversReadingIsShownWithSecretsAsStars() {
        assertThat(JdbcUrls.withoutPassword("jdbc:mysql://u:pw@h:3306/db?password=x&useSSL=false&trustStorePassword=y"))
                .isEqualTo("jdbc:mysql://u:***@h:3306/db?password=***&trustStorePassword=***&useSSL=false");
        assertThat(JdbcUrls.withoutPassword("jdbc:mysql://address=(host=h)(port=3307)(user=u)(password=S)/db"))
                .isEqualTo("jdbc:mysql://(host=h,password=***,port=3307,user=u)/db");
        assertThat(JdbcUrls.withoutPassword("jdbc:mysql://h1:3306,u2:S@h2/db?password1=A&password2=B&password3=C"))
                .isEqualTo("jdbc:mysql://h1:3306,u2:***@h2/db?password1=***&password2=***&password3=***");
        assertThat(JdbcUrls.withoutPassword("jdbc:mysql:loadbalance://[::1]:3306/db"))
                .isEqualTo("jdbc:mysql:loadbalance://[::1]:3306/db");
    }

    @Test
    void aUrlWithoutSecretsIsUnchanged() {
        for (String url : new String[] {"jdbc:mysql://127.0.0.1:3306/leaf", "jdbc:mysql://h/db?useSSL=false",
                "jdbc:mysql://u@h/db"}) {
            assertThat(JdbcUrls.withoutPassword(url)).isEqualTo(url);
        }
        assertThat(JdbcUrls.withoutPassword(null)).isNull();
    }

    @Test
    void aUrlTheDriverCannotReadShowsItsSchemeOnly() {
        assertThat(JdbcUrls.withoutPassword("jdbc:mysql://address=(host=h)(password=S/db")).isEqualTo("jdbc:mysql:");
        assertThat(JdbcUrls.withoutPassword("not a url u:S@h")).isEqualTo("(a url that cannot be read)");
    }

    @Test
    void aPostgresqlUrlKeepsItsHostsAndDatabaseAndLosesItsQuery() {
        assertThat(JdbcUrls.withoutPassword("jdbc:postgresql://h:5432/db?user=leaf&password=S&sslpassword=T"))
                .isEqualTo("jdbc:postgresql://h:5432/db");
        assertThat(JdbcUrls.withoutPassword("jdbc:postgresql://a:5432,b:5433/db?targetServerType=primary&password=S"))
                .isEqualTo("jdbc:postgresql://a:5432,b:5433/db");
        assertThat(JdbcUrls.withoutPassword("jdbc:postgresql://leaf:S@h/db")).isEqualTo("jdbc:postgresql://h/db");
        assertThat(JdbcUrls.withoutPassword("jdbc:postgresql:db")).isEqualTo("jdbc:postgresql:db");
        for (String url : new String[] {"jdbc:postgresql://h/db?password=S", "jdbc:postgresql://leaf:S@h/db"}) {
            assertThat(JdbcUrls.withoutPassword(url)).doesNotContain("S");
        }
    }

    @Test
    void anH2UrlKeepsItsDatabaseAndLosesItsSettings() {
        assertThat(JdbcUrls.withoutPassword("jdbc:h2:file:/srv/leaf/data/leaf-db;MODE=MySQL;PASSWORD=S"))
                .isEqualTo("jdbc:h2:file:/srv/leaf/data/leaf-db");
    }

    /** Connector/J's failover list makes connections read-only after a failover unless told otherwise. */
    @Test
    void aListOfHostsWithoutFailOverReadOnlyFalseIsReadOnlyAfterAFailover() {
        assertThat(JdbcUrls.readOnlyAfterFailover("jdbc:mysql://h1:3306,h2:3306,h3:3306/leaf")).isTrue();
        assertThat(JdbcUrls.readOnlyAfterFailover("jdbc:mysql://h1,h2/leaf?failOverReadOnly=true")).isTrue();
        assertThat(JdbcUrls.readOnlyAfterFailover("jdbc:mysql://h1,h2/leaf?failOverReadOnly=false")).isFalse();
        assertThat(JdbcUrls.readOnlyAfterFailover("jdbc:mysql://h1,h2/leaf?useSSL=false&failOverReadOnly=FALSE"))
                .isFalse();
        assertThat(JdbcUrls.readOnlyAfterFailover("jdbc:mysql://h1:3306/leaf")).isFalse();
        assertThat(JdbcUrls.readOnlyAfterFailover("jdbc:mysql:loadbalance://h1,h2/leaf")).isFalse();
        assertThat(JdbcUrls.readOnlyAfterFailover("jdbc:postgresql://h1,h2/leaf")).isFalse();
        assertThat(JdbcUrls.readOnlyAfterFailover(null)).isFalse();
    }
}
