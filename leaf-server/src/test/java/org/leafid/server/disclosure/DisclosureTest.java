package org.leafid.server.disclosure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.mock.env.MockEnvironment;

/** What each reader may see of failures' texts: secrets to no one; hosts, urls, names and fingerprints to the admin only. */
class DisclosureTest {

    private static Disclosure disclosure(String url, String password) {
        MockEnvironment environment = new MockEnvironment().withProperty("leaf.jdbc.url", url)
                .withProperty("leaf.jdbc.password", password)
                .withProperty("leaf.snowflake.zk.address", "zk1.internal:2181,zk2.internal:2181")
                .withProperty("spring.data.redis.host", "cache.internal");
        return new Disclosure(environment, new StaticListableBeanFactory().getBeanProvider(AdminCaller.class));
    }

    @Test
    void aPostgresqlUserInfoPasswordQuotedByTheDriverIsHiddenFromEveryone() {
        Disclosure disclosure = disclosure("jdbc:postgresql://leaf:Hunter2pw@db.internal:5432/orders", "");
        String text = "Tag 't': jdbc:postgresql://db.internal:5432/orders failed: The connection attempt failed. "
                + "(java.net.UnknownHostException: leaf:Hunter2pw@db.internal)";

        assertThat(disclosure.masked(text)).doesNotContain("Hunter2pw").contains("db.internal");
        assertThat(disclosure.forAnonymous(text)).doesNotContain("Hunter2pw", "db.internal", "orders", "5432")
                .contains("Tag 't'", "(the database of leaf.jdbc.url) failed", "connection attempt failed");
    }

    @Test
    void hostsIpAddressesUrlsAndDatabaseNamesAreHiddenFromAnonymousCallers() {
        Disclosure disclosure = disclosure("jdbc:mysql://10.1.2.3:3306,db2.internal:3307/leaf_orders?useSSL=false",
                "s3cr3t-pw");
        String text = "jdbc:mysql://10.1.2.3:3306,db2.internal:3307/leaf_orders?useSSL=false refused the connection "
                + "(Communications link failure to 10.1.2.3:3306); Unknown database 'leaf_orders'; Access denied for "
                + "user 'leaf'@'172.17.0.2' (using password: YES); zk1.internal:2181 lost; Redis at cache.internal:6379 "
                + "and [fe80::1]:6379 and 2001:db8::7; password s3cr3t-pw";

        String shown = disclosure.forAnonymous(text);
        assertThat(shown).doesNotContain("10.1.2.3", "db2.internal", "leaf_orders", "172.17.0.2", "zk1.internal",
                "cache.internal", "fe80", "2001:db8", "s3cr3t-pw", "3306");
        assertThat(shown).contains("refused the connection", "Unknown database '(database)'", "(host)");
        assertThat(disclosure.masked(text)).contains("10.1.2.3", "leaf_orders").doesNotContain("s3cr3t-pw");
    }

    @Test
    void everyStoreOfSeveralHasItsPasswordHostAndDatabaseHidden() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("leaf.jdbc.stores[0].url", "jdbc:mysql://db-a.internal:3306/leaf_a")
                .withProperty("leaf.jdbc.stores[0].password", "pw-of-store-a")
                .withProperty("leaf.jdbc.stores[1].url", "jdbc:postgresql://db-c.internal:5432/leaf_c?password=inurl9")
                .withProperty("leaf.jdbc.stores[1].password", "pw-of-store-c");
        Disclosure disclosure = new Disclosure(environment,
                new StaticListableBeanFactory().getBeanProvider(AdminCaller.class));
        String text = "stores[0] (db-a.internal:3306) refused: Access denied (pw-of-store-a); stores[1] "
                + "jdbc:postgresql://db-c.internal:5432/leaf_c?password=inurl9 failed; database 'leaf_c' "
                + "pw-of-store-c";

        assertThat(disclosure.masked(text)).doesNotContain("pw-of-store-a", "pw-of-store-c", "inurl9")
                .contains("db-a.internal");
        assertThat(disclosure.forAnonymous(text)).doesNotContain("pw-of-store", "inurl9", "db-a.internal",
                "db-c.internal", "'leaf_c'").contains("stores[0]", "stores[1]", "refused");
    }

    @Test
    void keyFingerprintsAreHiddenButIdsTimesAndKeysOfTheConfigurationStay() {
        Disclosure disclosure = disclosure("jdbc:h2:file:./data/leaf", "");
        String text = "app 7's IDs are opaque (key 0123456789012345 recorded in leaf_shard_key), this server's "
                + "leaf.shard.opaque-key gives 9f86d081884c7d65/max_limit_id=1000000; ID 2015381542432313344 and "
                + "1234567890123456 at 2026-11-27T18:26:13.123Z, 18:26:13; leaf-segment-test; leaf.jdbc.url";

        String shown = disclosure.forAnonymous(text);
        assertThat(shown).doesNotContain("0123456789012345", "9f86d081884c7d65", "max_limit_id=1000000");
        assertThat(shown).contains("2015381542432313344", "1234567890123456", "2026-11-27T18:26:13.123Z", "18:26:13",
                "leaf-segment-test", "leaf.jdbc.url", "leaf.shard.opaque-key");
    }

    @Test
    void nothingToHideLeavesTheTextAlone() {
        Disclosure disclosure = disclosure("", "");
        assertThat(disclosure.forAnonymous("Tag 'a' is not in leaf_alloc")).isEqualTo("Tag 'a' is not in leaf_alloc");
        assertThat(disclosure.forAnonymous(null)).isNull();
    }
}
