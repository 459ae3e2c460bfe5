package org.leafid.autoconfigure.mode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.leafid.core.worker.WorkerIdRegistry;

/**
 * CONTRIBUTING.md's checklist for a worker-id mode, followed for every {@link WorkerIdMode}: its
 * auto-configuration in the starter's package named after it, switched on by that mode alone and
 * listed for Spring Boot; its registry {@code <Mode>WorkerIdRegistry} in the package of the same name
 * in the module the mode says it needs; a registry contract test; a section in
 * docs/worker-id-modes.md. And no code outside a mode's package asks {@code == SOME_MODE}.
 */
class WorkerIdModePartsTest {

    /** Where each module keeps its worker-id registries. */
    private static final Map<String, String> REGISTRY_PACKAGES = Map.of(
            "leaf-core", "org.leafid.core.worker",
            "leaf-jdbc", "org.leafid.jdbc.worker",
            "leaf-zookeeper", "org.leafid.zookeeper",
            "leaf-redis", "org.leafid.redis.worker");

    private static final Pattern MODE_COMPARISON =
            Pattern.compile("[=!]=\\s*WorkerIdMode\\.[A-Z_]+|WorkerIdMode\\.[A-Z_]+\\s*[=!]=");

    @ParameterizedTest
    @EnumSource(WorkerIdMode.class)
    void itsAutoConfigurationLivesInItsOwnPackageAndIsSwitchedOnByItAlone(WorkerIdMode mode) throws Exception {
        String name = "org.leafid.autoconfigure.snowflake." + mode.packageName() + "." + camel(mode)
                + "WorkerIdAutoConfiguration";
        Class<?> configuration = Class.forName(name);
        ConditionalOnWorkerIdMode condition = configuration.getAnnotation(ConditionalOnWorkerIdMode.class);
        assertThat(condition).as("%s carries @ConditionalOnWorkerIdMode", name).isNotNull();
        assertThat(condition.value()).as("the modes that switch %s on", name).containsExactly(mode);
        assertThat(autoConfigurations()).as("AutoConfiguration.imports lists %s", name).contains(name);
    }

    @ParameterizedTest
    @EnumSource(WorkerIdMode.class)
    void itsRegistryIsNamedAfterItInItsModule(WorkerIdMode mode) {
        String base = REGISTRY_PACKAGES.get(mode.module());
        assertThat(base).as("the module %s of mode %s", mode.module(), mode.key()).isNotNull();
        String simpleName = camel(mode) + "WorkerIdRegistry";
        boolean aloneInItsModule = Arrays.stream(WorkerIdMode.values())
                .filter(other -> other.module().equals(mode.module())).count() == 1;
        Optional<Class<?>> registry = load(base + "." + mode.packageName() + "." + simpleName)
                .or(() -> aloneInItsModule ? load(base + "." + simpleName) : Optional.empty());
        assertThat(registry).as("%s in %s.%s of %s", simpleName, base, mode.packageName(), mode.module()).isPresent();
        assertThat(WorkerIdRegistry.class).isAssignableFrom(registry.get());
    }

    @ParameterizedTest
    @EnumSource(WorkerIdMode.class)
    void itsRegistryPassesTheContractAndTheDocsHaveItsSection(WorkerIdMode mode) throws IOException {
        Path root = repositoryRoot();
        String contractTest = camel(mode) + "WorkerIdRegistryContractTest.java";
        try (Stream<Path> files = Files.walk(root.resolve(mode.module()).resolve("src/test/java"))) {
            assertThat(files.map(path -> path.getFileName().toString())).as("%s in %s", contractTest, mode.module())
                    .contains(contractTest);
        }
        String docs = Files.readString(root.resolve("docs/worker-id-modes.md"));
        assertThat(docs).as("docs/worker-id-modes.md has a section for %s", mode.key())
                .containsPattern("(?m)^## `" + mode.key() + "`");
    }

    @Test
    void noCodeOutsideAModesPackageComparesModes() throws IOException {
        List<String> comparisons = new ArrayList<>();
        try (Stream<Path> files = Files.walk(repositoryRoot())) {
            files.filter(path -> path.toString().endsWith(".java") && path.toString().contains("/src/main/java/"))
                    .forEach(path -> {
                        try {
                            if (MODE_COMPARISON.matcher(Files.readString(path)).find()) {
                                comparisons.add(repositoryRoot().relativize(path).toString());
                            }
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    });
        }
        assertThat(comparisons).as("files comparing a WorkerIdMode with == or !=").isEmpty();
    }

    /** {@code zk_normal} → {@code ZkNormal}. */
    private static String camel(WorkerIdMode mode) {
        StringBuilder name = new StringBuilder();
        for (String part : mode.key().split("_")) {
            name.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return name.toString();
    }

    private static Optional<Class<?>> load(String name) {
        try {
            return Optional.of(Class.forName(name));
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    private static List<String> autoConfigurations() throws IOException {
        try (InputStream in = WorkerIdModePartsTest.class.getResourceAsStream(
                "/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip).toList();
        }
    }

    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs")) && Files.exists(dir.resolve("mvnw"))) {
                return dir;
            }
        }
        throw new IllegalStateException("the repository root is not above " + Path.of("").toAbsolutePath());
    }
}
