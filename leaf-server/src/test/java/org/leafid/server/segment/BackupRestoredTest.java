package org.leafid.server.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A backup of the database restored, then the server started again on its data directory (issue 44's
 * first case, on MariaDB and PostgreSQL): a tag served in batches, a dump taken (the row and its high-water mark as
 * they were), more IDs served, the server stopped, the dump loaded back, the server started again.
 * The witness in the data directory holds what the server reserved after the dump, so nothing served
 * before is served again. Every ID is collected.
 */
class BackupRestoredTest {

    @TempDir
    Path dataDir;

    @Test
    void onMariadbARestoredBackupUnderARestartedServerRepeatsNothing() throws Exception {
        restoreUnderRestart(TestDatabase.get());
    }

    @Test
    void onPostgresqlARestoredBackupUnderARestartedServerRepeatsNothing() throws Exception {
        restoreUnderRestart(TestDatabase.postgres());
    }

    private void restoreUnderRestart(TestDatabase database) throws Exception {
        String tag = database.newTag("restored", 1, 100);
        List<Long> issued = new ArrayList<>();
        long dumpedMaxId;
        try (ConfigurableApplicationContext server = start(database)) {
            Http http = http(server);
            take(http, tag, 500, issued);
            dumpedMaxId = database.maxId(tag); // mysqldump of leaf_alloc and leaf_high_water, as they are now
            take(http, tag, 6_000, issued);
        }
        long before = issued.size();
        // The dump loaded back: the row and its mark as they were at the dump.
        database.setBackWithMark(tag, database.maxId(tag) - dumpedMaxId);
        assertThat(database.maxId(tag)).isEqualTo(dumpedMaxId);

        try (ConfigurableApplicationContext server = start(database)) {
            take(http(server), tag, 4_000, issued);
        }

        Set<Long> distinct = new HashSet<>(issued);
        assertThat(issued).hasSize(10_500);
        assertThat(distinct).as("IDs served twice across the restore").hasSize(issued.size());
        long highestBefore = issued.subList(0, (int) before).stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(issued.subList((int) before, issued.size())).allSatisfy(id -> assertThat(id).isGreaterThan(highestBefore));
    }

    /** Batches of 50, as the operator took them. */
    private static void take(Http http, String tag, int count, List<Long> into) {
        for (int taken = 0; taken < count; taken += 50) {
            String body = http.get("/api/segment/get/" + tag + "?count=50").body();
            body.lines().map(Long::parseLong).forEach(into::add);
        }
    }

    private ConfigurableApplicationContext start(TestDatabase database) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.enable=false",
                "--leaf.data-dir=" + dataDir));
        for (Map.Entry<String, Object> property : database.serverProperties().entrySet()) {
            arguments.add("--" + property.getKey() + "=" + property.getValue());
        }
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
