package org.leafid.server.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.leafid.server.kubernetes.KubernetesManifests.at;
import static org.leafid.server.kubernetes.KubernetesManifests.list;
import static org.leafid.server.kubernetes.KubernetesManifests.map;
import static org.leafid.server.kubernetes.KubernetesManifests.named;
import static org.leafid.server.kubernetes.KubernetesManifests.string;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.LeafKeys;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.autoconfigure.snowflake.kubernetes.KubernetesSettings;
import org.leafid.autoconfigure.snowflake.kubernetes.PodOrdinal;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.convert.DurationStyle;

/**
 * {@code deploy/kubernetes/} against the server it deploys, without a cluster (none runs here): the
 * port, the probe and metrics paths, the drain, the image's working directory and data directory, every
 * key of the ConfigMap's {@code leaf.properties}, the mode, the worker ids of the StatefulSet's pods, the
 * memory left beside the heap, and the segment-mode example's properties and password.
 * {@link KubernetesModeTest} starts the server with that {@code leaf.properties} and calls those paths.
 */
class KubernetesManifestsTest {

    /**
     * The server's memory outside the heap under load, in MiB, as docs/operations.md ("Kubernetes") gives it:
     * what Native Memory Tracking counts besides the heap (GC, metaspace, code cache, class data, threads) and
     * what it does not (the resident size above its total). The container keeps half as much again beside the heap.
     */
    private static final int NON_HEAP_MIB = 185;

    private final KubernetesManifests manifests = KubernetesManifests.read();
    private final Properties server = applicationProperties();
    private final Properties leaf = manifests.leafProperties();

    @Test
    void theContainerListensOnTheServersPortAndTheServicesReachItByName() {
        Map<String, Object> port = named(list(manifests.container(), "ports"), "http");
        assertThat(port.get("containerPort")).isEqualTo(Integer.parseInt(server.getProperty("server.port")));
        assertThat(dockerfile("EXPOSE")).isEqualTo(port.get("containerPort").toString());
        for (Map<String, Object> service : manifests.all("Service")) {
            assertThat(at(service, "spec", "selector")).isEqualTo(podLabels());
            for (Map<String, Object> servicePort : list(service, "spec", "ports")) {
                assertThat(servicePort.get("targetPort")).as("targetPort of %s", service).isEqualTo("http");
            }
        }
    }

    @Test
    void theProbesAreTheActuatorsAndTheyAreExposed() {
        Map<String, Object> container = manifests.container();
        assertThat(string(container, "startupProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
        assertThat(string(container, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
        assertThat(string(container, "readinessProbe", "httpGet", "path")).isEqualTo("/actuator/health/readiness");
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            assertThat(string(container, probe, "httpGet", "port")).as(probe).isEqualTo("http");
        }
        assertThat(server.getProperty("management.endpoint.health.probes.enabled")).isEqualTo("true");
        assertThat(exposedEndpoints()).contains("health", "prometheus");
        assertThat(server.getProperty("management.server.port"))
                .as("the actuator on the server's port, where the probes and the ServiceMonitor look").isNull();
    }

    @Test
    void everyKeyOfTheConfigMapIsALeafKeyAndTheModeIsKubernetes() {
        LeafKeys known = LeafKeys.fromMetadata(getClass().getClassLoader());
        assertThat(known.names()).as("keys in the configuration metadata").isNotEmpty();
        assertThat(leaf.stringPropertyNames()).isNotEmpty().allSatisfy(key -> {
            assertThat(key).startsWith("leaf.");
            assertThat(known.contains(key)).as("%s is a Leaf key", key).isTrue();
        });
        assertThat(leaf.getProperty("leaf.snowflake.mode")).isEqualTo(WorkerIdMode.KUBERNETES.key());
        assertThat(snowflake().mode()).isEqualTo(WorkerIdMode.KUBERNETES);
    }

    @Test
    void thePodNameComesFromTheDownwardApiUnderTheKeysEnvironmentName() {
        Map<String, Object> variable = named(list(manifests.container(), "env"), "LEAF_SNOWFLAKE_KUBERNETES_PODNAME");
        assertThat(string(variable, "valueFrom", "fieldRef", "fieldPath")).isEqualTo("metadata.name");
        // Spring's relaxed binding of an environment variable: upper case, '.' as '_', '-' left out.
        assertThat("leaf.snowflake.kubernetes.pod-name".replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT))
                .isEqualTo(variable.get("name"));
    }

    @Test
    void theDataDirIsThePodsVolumeAndLeafPropertiesIsInTheImagesWorkingDirectory() {
        Map<String, Object> statefulSet = manifests.one("StatefulSet");
        List<Map<String, Object>> mounts = list(manifests.container(), "volumeMounts");
        String dataDir = leaf.getProperty("leaf.data-dir");
        assertThat(string(named(mounts, "data"), "mountPath")).isEqualTo(dataDir);
        assertThat(list(statefulSet, "spec", "volumeClaimTemplates"))
                .anySatisfy(claim -> assertThat(string(claim, "metadata", "name")).isEqualTo("data"));
        assertThat(dockerfileVariable("LEAF_DATA_DIR")).as("the image's variable, which outranks leaf.properties")
                .isEqualTo(dataDir);

        // The pod runs as the image's own user, who owns the working directory.
        Object runAs = ((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) statefulSet.get("spec")).get("template")).get("spec"))
                .get("securityContext");
        assertThat(dockerfileText()).contains("--uid " + ((Map<?, ?>) runAs).get("runAsUser"),
                "--gid " + ((Map<?, ?>) runAs).get("runAsGroup"));

        Map<String, Object> config = named(mounts, "config");
        assertThat(string(config, "mountPath")).isEqualTo(dockerfile("WORKDIR") + "/leaf.properties");
        assertThat(string(config, "subPath")).isEqualTo("leaf.properties");
        Map<String, Object> volume = named(list(statefulSet, "spec", "template", "spec", "volumes"), "config");
        assertThat(string(volume, "configMap", "name")).isEqualTo(string(manifests.one("ConfigMap"), "metadata", "name"));
    }

    @Test
    void theGracePeriodOutlastsThePauseAndTheServersDrain() {
        assertThat(server.getProperty("server.shutdown")).isEqualTo("graceful");
        Duration drain = DurationStyle.detectAndParse(
                server.getProperty("spring.lifecycle.timeout-per-shutdown-phase", "30s"));
        List<?> preStop = (List<?>) at(manifests.container(), "lifecycle", "preStop", "exec", "command");
        assertThat(preStop).hasSize(2).first().isEqualTo("sleep");
        long pause = Long.parseLong(preStop.get(1).toString());
        int grace = (Integer) at(manifests.one("StatefulSet"), "spec", "template", "spec",
                "terminationGracePeriodSeconds");
        assertThat(grace).as("terminationGracePeriodSeconds").isGreaterThan(Math.toIntExact(pause + drain.toSeconds()));
    }

    @Test
    void theServiceMonitorScrapesThePrometheusEndpointOfOneService() {
        Map<String, Object> monitor = manifests.one("ServiceMonitor");
        Map<String, Object> wanted = map(monitor, "spec", "selector", "matchLabels");
        List<Map<String, Object>> selected = manifests.all("Service").stream()
                .filter(service -> map(service, "metadata", "labels").entrySet().containsAll(wanted.entrySet()))
                .toList();
        assertThat(selected).as("Services the ServiceMonitor selects (each pod scraped once)").hasSize(1);
        assertThat(string(monitor, "metadata", "labels", "release"))
                .as("the label a kube-prometheus-stack Prometheus selects ServiceMonitors by").isNotBlank();
        Map<String, Object> endpoint = list(monitor, "spec", "endpoints").get(0);
        assertThat(endpoint.get("path")).isEqualTo("/actuator/prometheus");
        assertThat(list(selected.get(0), "spec", "ports"))
                .anySatisfy(port -> assertThat(port.get("name")).isEqualTo(endpoint.get("port")));
        assertThat(map(selected.get(0), "spec").get("clusterIP")).as("not the headless Service").isNotEqualTo("None");
    }

    @Test
    void theContainersImageIsTheNameTheBaseRewritesToThePublishedImage() {
        List<Map<String, Object>> images = list(KubernetesManifests.kustomization("deploy/kubernetes"), "images");
        assertThat(images).as("images of the base's kustomization").hasSize(1);
        assertThat(string(images.get(0), "name")).isEqualTo(string(manifests.container(), "image"));
        assertThat(string(images.get(0), "newName")).isEqualTo("ghcr.io/leafid/leaf-server");
    }

    @Test
    void theHeapLeavesTheNonHeapMemoryAndHalfAsMuchAgainWithinTheLimit() {
        Map<String, Object> resources = map(manifests.container(), "resources");
        String limit = string(resources, "limits", "memory");
        assertThat(string(resources, "requests", "memory")).as("memory request").isEqualTo(limit);

        // The JVM's flags have one home, the image: a container value would replace them all.
        assertThat(list(manifests.container(), "env")).as("the container's env")
                .noneSatisfy(variable -> assertThat(variable.get("name")).isEqualTo("JAVA_TOOL_OPTIONS"));
        Matcher image = Pattern.compile("JAVA_TOOL_OPTIONS=\"([^\"]*)\"").matcher(dockerfileText());
        assertThat(image.find()).as("ENV JAVA_TOOL_OPTIONS=\"...\" in the Dockerfile").isTrue();
        assertThat(image.group(1).split(" ")).as("the image's JAVA_TOOL_OPTIONS").contains("-XX:+ExitOnOutOfMemoryError");
        Matcher percentage = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(image.group(1));
        assertThat(percentage.find()).as("a heap share in %s", image.group(1)).isTrue();
        long limitMib = mebibytes(limit);
        long heapMib = limitMib * Integer.parseInt(percentage.group(1)) / 100;
        assertThat(limitMib - heapMib).as("MiB beside a heap of %d MiB in a limit of %s", heapMib, limit)
                .isGreaterThanOrEqualTo(NON_HEAP_MIB * 3L / 2);
    }

    @Test
    void theSegmentExampleKeepsTheBasesKeysAndTakesThePasswordFromASecret() {
        String overlay = "deploy/overlays/segment-mysql";
        Properties segment = KubernetesManifests.leafProperties(
                KubernetesManifests.file(overlay + "/leaf-properties.yaml").get(0));
        LeafKeys known = LeafKeys.fromMetadata(getClass().getClassLoader());
        assertThat(segment.stringPropertyNames()).allSatisfy(
                key -> assertThat(known.contains(key)).as("%s is a Leaf key", key).isTrue());
        // The patch replaces the whole file: every other key of the base must be in it, unchanged.
        for (String key : leaf.stringPropertyNames()) {
            if (!key.equals("leaf.segment.enable")) {
                assertThat(segment.getProperty(key)).as(key).isEqualTo(leaf.getProperty(key));
            }
        }
        assertThat(segment.getProperty("leaf.segment.enable")).isEqualTo("true");
        assertThat(segment.getProperty("leaf.jdbc.url")).startsWith("jdbc:");
        assertThat(segment.getProperty("leaf.jdbc.password")).as("the password is the Secret's").isNull();

        Map<String, Object> patch = KubernetesManifests.file(overlay + "/jdbc-password.yaml").get(0);
        Map<String, Object> container = named(list(patch, "spec", "template", "spec", "containers"),
                string(manifests.container(), "name"));
        Map<String, Object> variable = named(list(container, "env"), "LEAF_JDBC_PASSWORD");
        assertThat(string(variable, "valueFrom", "secretKeyRef", "name")).isEqualTo("leaf-db");
        assertThat(string(variable, "valueFrom", "secretKeyRef", "key")).isEqualTo("password");
        // Spring's relaxed binding of an environment variable: upper case, '.' as '_'.
        assertThat("leaf.jdbc.password".replace('.', '_').toUpperCase(Locale.ROOT)).isEqualTo(variable.get("name"));
    }

    @Test
    void theStatefulSetsServiceIsHeadlessAndTheBudgetSelectsItsPods() {
        Map<String, Object> statefulSet = manifests.one("StatefulSet");
        Map<String, Object> headless = manifests.all("Service").stream()
                .filter(service -> string(service, "metadata", "name").equals(string(statefulSet, "spec", "serviceName")))
                .findFirst().orElseThrow(() -> new AssertionError("no Service named by spec.serviceName"));
        assertThat(string(headless, "spec", "clusterIP")).isEqualTo("None");

        Map<String, Object> selector = map(statefulSet, "spec", "selector", "matchLabels");
        assertThat(podLabels().entrySet()).containsAll(selector.entrySet());
        assertThat(map(manifests.one("PodDisruptionBudget"), "spec", "selector", "matchLabels")).isEqualTo(selector);
    }

    @Test
    void everyPodOfTheStatefulSetGetsItsOwnWorkerIdWithinTheLayout() {
        Map<String, Object> statefulSet = manifests.one("StatefulSet");
        String name = string(statefulSet, "metadata", "name");
        int replicas = (Integer) at(statefulSet, "spec", "replicas");
        SnowflakeProperties snowflake = snowflake();
        SnowflakeLayout layout = snowflake.snowflakeLayout();
        int offset = bind("leaf.snowflake.kubernetes", KubernetesSettings.class).offset();
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            assertThat(PodOrdinal.of(name + "-" + ordinal, null).workerId(offset, layout)).isEqualTo(offset + ordinal);
        }
        assertThat(offset + replicas - 1).isLessThanOrEqualTo(layout.maxWorkerId());
    }

    private Map<String, Object> podLabels() {
        return map(manifests.one("StatefulSet"), "spec", "template", "metadata", "labels");
    }

    /** {@code leaf.snowflake.*} of the ConfigMap, bound as the server binds it. */
    private SnowflakeProperties snowflake() {
        return bind("leaf.snowflake", SnowflakeProperties.class);
    }

    /** The ConfigMap's leaf.properties, bound as the server binds it. */
    private <T> T bind(String prefix, Class<T> record) {
        Map<String, String> values = new LinkedHashMap<>();
        leaf.stringPropertyNames().forEach(key -> values.put(key, leaf.getProperty(key)));
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, record);
    }

    /** A Kubernetes quantity in Mi or Gi, in MiB. */
    private static long mebibytes(String quantity) {
        Matcher matcher = Pattern.compile("(\\d+)(Mi|Gi)").matcher(quantity);
        assertThat(matcher.matches()).as("%s in Mi or Gi", quantity).isTrue();
        return Long.parseLong(matcher.group(1)) * (matcher.group(2).equals("Gi") ? 1024 : 1);
    }

    private List<String> exposedEndpoints() {
        return List.of(server.getProperty("management.endpoints.web.exposure.include").split(","));
    }

    /** The argument of the Dockerfile's last {@code instruction} line (the run stage's, for WORKDIR). */
    private static String dockerfile(String instruction) {
        String found = null;
        for (String line : dockerfileText().split("\n")) {
            if (line.startsWith(instruction + " ")) {
                found = line.substring(instruction.length()).strip();
            }
        }
        assertThat(found).as("a %s line in the Dockerfile", instruction).isNotNull();
        return found;
    }

    /** The value an ENV instruction of the Dockerfile gives the variable (one of several in the line or not). */
    private static String dockerfileVariable(String name) {
        Matcher matcher = Pattern.compile("(?m)(?:^|\\s)" + name + "=(\\S+)").matcher(dockerfileText());
        assertThat(matcher.find()).as("ENV %s in the Dockerfile", name).isTrue();
        return matcher.group(1);
    }

    private static String dockerfileText() {
        try {
            return Files.readString(TestDatabase.repoFile("Dockerfile"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties applicationProperties() {
        Properties properties = new Properties();
        try (InputStream in = KubernetesManifestsTest.class.getResourceAsStream("/application.properties")) {
            assertThat(in).as("the server's application.properties").isNotNull();
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }
}
