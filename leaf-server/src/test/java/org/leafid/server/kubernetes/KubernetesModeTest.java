package org.leafid.server.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The server started as a pod of {@code deploy/kubernetes/} starts it: with the ConfigMap's
 * {@code leaf.properties} ({@code leaf.snowflake.mode=kubernetes}), a pod name and a data dir standing in
 * for the pod's volume. Pod {@code leaf-7} issues with worker id 7, a restart on the same volume repeats
 * no ID, the manifests' probe and metrics paths answer, and a pod name without an ordinal stops the start
 * in Spring Boot's summary.
 */
@ExtendWith(OutputCaptureExtension.class)
class KubernetesModeTest {

    private static final int BATCHES = 5;
    private static final int BATCH = 1000;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final KubernetesManifests manifests = KubernetesManifests.read();

    @TempDir
    Path volume;

    @Test
    void podLeaf7IssuesWithWorkerId7AndARestartOnItsVolumeRepeatsNoId(CapturedOutput output) {
        long[] first;
        try (ConfigurableApplicationContext server = start("leaf-7")) {
            Http http = http(server);
            first = issue(http);
            assertThat(workerIdOf(http, first[first.length - 1])).isEqualTo(7);
            assertThat(http.get("/").body()).as("the status page names the mode").contains("mode <code>kubernetes</code>");
            assertTheManifestsPathsAnswer(http);
        }
        assertThat(output).contains("Snowflake: worker id 7 in mode kubernetes (leaf.snowflake.mode=kubernetes)");

        long[] second;
        try (ConfigurableApplicationContext server = start("leaf-7")) {
            Http http = http(server);
            second = issue(http);
            assertThat(workerIdOf(http, second[0])).isEqualTo(7);
        }
        long[] all = LongStream.concat(Arrays.stream(first), Arrays.stream(second)).sorted().toArray();
        for (int i = 1; i < all.length; i++) {
            assertThat(all[i]).as("ID issued twice").isNotEqualTo(all[i - 1]);
        }
        assertThat(all).hasSize(2 * BATCHES * BATCH);
        assertThat(Arrays.stream(second).min().orElseThrow()).as("the restart issues after the first run's IDs")
                .isGreaterThan(Arrays.stream(first).max().orElseThrow());
    }

    @Test
    void aPodNameWithoutOrdinalStopsTheStartInTheSummary(CapturedOutput output) {
        assertThatThrownBy(() -> start("leaf-7d9f8b-x2k4q").close()).rootCause()
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.key()).isEqualTo("leaf.snowflake.kubernetes.pod-name"));
        String printed = output.toString();
        assertThat(printed).contains("APPLICATION FAILED TO START", "Leaf configuration: leaf.snowflake.kubernetes"
                + ".pod-name gives the pod name 'leaf-7d9f8b-x2k4q' (from leaf.snowflake.kubernetes.pod-name), which "
                + "does not end in a StatefulSet ordinal", "Action:", "choose another leaf.snowflake.mode");
        assertThat(printed.lines().filter(line -> line.strip().startsWith("at ")).count())
                .as("stack frames printed").isZero();
    }

    /** The probes of the StatefulSet and the ServiceMonitor's path, on the server started with the ConfigMap. */
    private void assertTheManifestsPathsAnswer(Http http) {
        Map<String, Object> container = manifests.container();
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            String path = KubernetesManifests.string(container, probe, "httpGet", "path");
            HttpResponse<String> response = http.get(path);
            assertThat(response.statusCode()).as("%s %s: %s", probe, path, response.body()).isEqualTo(200);
        }
        JsonNode readiness = JSON.readTree(http.get(KubernetesManifests.string(container, "readinessProbe", "httpGet",
                "path")).body());
        assertThat(readiness.at("/components/workerId/status").asString()).as("readiness covers the worker id")
                .isEqualTo("UP");
        assertThat(readiness.at("/components/workerId/details/workerId").asInt()).isEqualTo(7);
        String metrics = (String) KubernetesManifests.list(manifests.one("ServiceMonitor"), "spec", "endpoints").get(0)
                .get("path");
        assertThat(http.get(metrics).body()).contains("leaf_snowflake_worker_id 7.0");
    }

    private static long[] issue(Http http) {
        List<Long> ids = new ArrayList<>();
        for (int batch = 0; batch < BATCHES; batch++) {
            HttpResponse<String> response = http.send("GET", "/api/snowflake/get/k8s?count=" + BATCH, "Accept",
                    "application/json");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            for (String id : JSON.readValue(response.body(), String[].class)) {
                ids.add(Long.parseLong(id));
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private static int workerIdOf(Http http, long id) {
        HttpResponse<String> response = http.get("/api/snowflake/decode/" + id);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body()).get("workerId").asInt();
    }

    /**
     * The ConfigMap's {@code leaf.properties} as arguments, the pod's volume and name replaced: one value per
     * key, as the file gives it (an argument given twice would be read as both values joined).
     */
    private ConfigurableApplicationContext start(String podName) {
        Properties leaf = manifests.leafProperties();
        Map<String, String> settings = new LinkedHashMap<>();
        leaf.stringPropertyNames().forEach(key -> settings.put(key, leaf.getProperty(key)));
        settings.put("leaf.data-dir", volume.toString());
        settings.put("leaf.snowflake.kubernetes.pod-name", podName);
        settings.put("leaf.snowflake.ip", "127.0.0.1");
        settings.put("leaf.snowflake.port", "18097");
        settings.put("server.port", "0");
        String[] arguments = settings.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments);
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
