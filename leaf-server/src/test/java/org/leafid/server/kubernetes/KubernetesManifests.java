package org.leafid.server.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.leafid.testing.jdbc.TestDatabase;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The documents that {@code kubectl kustomize deploy/overlays/prometheus-operator} renders (the
 * base and the ServiceMonitor component), as written in their files: kustomize's {@code images:} rewrite and
 * patches are not applied ({@code .ci/check-kubernetes.sh} checks the rendered output). With the few look-ups
 * the tests need: by kind, by path, the ConfigMap's {@code leaf.properties}.
 */
final class KubernetesManifests {

    /** The base and every optional component: all the documents of the repository's manifests but the examples. */
    static final String OVERLAY = "deploy/overlays/prometheus-operator";

    private final List<Map<String, Object>> documents;

    private KubernetesManifests(List<Map<String, Object>> documents) {
        this.documents = documents;
    }

    /** Every document of every file that the overlay's kustomization names, directories followed. */
    static KubernetesManifests read() {
        List<Map<String, Object>> documents = new ArrayList<>();
        collect(TestDatabase.repoFile(OVERLAY), documents);
        return new KubernetesManifests(documents);
    }

    /** The {@code kustomization.yaml} of a directory of the repository, such as {@code deploy/kubernetes}. */
    static Map<String, Object> kustomization(String directory) {
        return file(directory + "/kustomization.yaml").get(0);
    }

    /** The documents of one file of the repository. */
    static List<Map<String, Object>> file(String path) {
        return load(TestDatabase.repoFile(path));
    }

    /** The files that the kustomization of {@code directory} names under resources and components. */
    private static void collect(Path directory, List<Map<String, Object>> documents) {
        Map<String, Object> kustomization = load(directory.resolve("kustomization.yaml")).get(0);
        for (String key : List.of("resources", "components")) {
            for (Object entry : (List<?>) kustomization.getOrDefault(key, List.of())) {
                Path path = directory.resolve(entry.toString()).normalize();
                if (Files.isDirectory(path)) {
                    collect(path, documents);
                } else {
                    documents.addAll(load(path));
                }
            }
        }
    }

    private static List<Map<String, Object>> load(Path file) {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file)) {
            for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
                if (document != null) {
                    documents.add(map(document, file.toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    /** The one document of this kind. */
    Map<String, Object> one(String kind) {
        List<Map<String, Object>> found = all(kind);
        assertThat(found).as("documents of kind %s", kind).hasSize(1);
        return found.get(0);
    }

    List<Map<String, Object>> all(String kind) {
        return documents.stream().filter(document -> kind.equals(document.get("kind"))).toList();
    }

    /** The ConfigMap's {@code leaf.properties}, as the server reads the file. */
    Properties leafProperties() {
        return leafProperties(one("ConfigMap"));
    }

    /** The {@code leaf.properties} of this ConfigMap, as the server reads the file. */
    static Properties leafProperties(Map<String, Object> configMap) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(string(configMap, "data", "leaf.properties")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    /** The StatefulSet's one container. */
    Map<String, Object> container() {
        List<Map<String, Object>> containers = list(one("StatefulSet"), "spec", "template", "spec", "containers");
        assertThat(containers).as("containers of the StatefulSet").hasSize(1);
        return containers.get(0);
    }

    /** The value at {@code path} (map keys) under {@code node}; fails naming the path when it is missing. */
    static Object at(Object node, String... path) {
        Object current = node;
        for (String key : path) {
            assertThat(current).as("parent of %s in %s", key, String.join(".", path)).isInstanceOf(Map.class);
            current = ((Map<?, ?>) current).get(key);
            assertThat(current).as(String.join(".", path)).isNotNull();
        }
        return current;
    }

    static String string(Object node, String... path) {
        return String.valueOf(at(node, path));
    }

    static Map<String, Object> map(Object node, String... path) {
        return map(at(node, path), String.join(".", path));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Object node, String... path) {
        Object value = at(node, path);
        assertThat(value).as(String.join(".", path)).isInstanceOf(List.class);
        return (List<Map<String, Object>>) value;
    }

    /** The element of a list of named things (ports, volumes, env…) with this {@code name}. */
    static Map<String, Object> named(List<Map<String, Object>> elements, String name) {
        List<Map<String, Object>> found = elements.stream().filter(e -> name.equals(e.get("name"))).toList();
        assertThat(found).as("elements named %s in %s", name, elements).hasSize(1);
        return found.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value, String what) {
        assertThat(value).as(what).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }
}
