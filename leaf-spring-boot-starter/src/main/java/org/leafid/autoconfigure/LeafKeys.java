package org.leafid.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * The valid {@code leaf.*} keys, from the configuration metadata that
 * {@code spring-boot-configuration-processor} writes for the {@code @ConfigurationProperties}
 * records (plus {@code additional-spring-configuration-metadata.json}): one source of truth, so a
 * key added to a record is known here without a second list. Keys compare relaxed
 * ({@code workIdMap} = {@code work-id-map}); a Map- or List-typed key accepts any key below it.
 */
public final class LeafKeys {

    static final String METADATA = "META-INF/spring-configuration-metadata.json";

    private final Set<ConfigurationPropertyName> keys;
    private final List<ConfigurationPropertyName> openPrefixes;
    private final List<String> names;

    private LeafKeys(Set<ConfigurationPropertyName> keys, List<ConfigurationPropertyName> openPrefixes,
            List<String> names) {
        this.keys = keys;
        this.openPrefixes = openPrefixes;
        this.names = names;
    }

    public static LeafKeys fromMetadata(ClassLoader classLoader) {
        Set<ConfigurationPropertyName> keys = new HashSet<>();
        List<ConfigurationPropertyName> openPrefixes = new ArrayList<>();
        List<String> names = new ArrayList<>();
        // Only the files that mention a leaf.* key are parsed: Spring Boot's own modules' metadata is
        // several hundred kB of JSON, and parsing it cost every start about a quarter of a second.
        // They are read by MetadataJson, not Jackson: see there.
        for (Map<String, Object> property : metadataProperties(classLoader, text -> text.contains("\"leaf."))) {
            String name = (String) property.get("name");
            String type = String.valueOf(property.get("type"));
            if (name != null && name.startsWith("leaf.")) {
                ConfigurationPropertyName key = ConfigurationPropertyName.of(name);
                keys.add(key);
                names.add(name);
                // A list's items are written with an index (leaf.jdbc.stores[0].url); the metadata has no
                // entry below a list, and a misspelt field of an item leaves the field empty, which its record refuses.
                if (type.startsWith("java.util.Map") || type.startsWith("java.util.List")) {
                    openPrefixes.add(key);
                }
            }
        }
        Collections.sort(names);
        return new LeafKeys(keys, openPrefixes, names);
    }

    /**
     * Every property entry ({@code name}, {@code type}, {@code defaultValue}, {@code description})
     * of the configuration metadata on the class path, of every module, {@code leaf.*} or not; the
     * one reader of the metadata (the configuration reference page is generated from it too).
     */
    public static List<Map<String, Object>> metadataProperties(ClassLoader classLoader) {
        return metadataProperties(classLoader, text -> true);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> metadataProperties(ClassLoader classLoader,
            Predicate<String> worthParsing) {
        List<Map<String, Object>> properties = new ArrayList<>();
        try {
            for (URL url : Collections.list(classLoader.getResources(METADATA))) {
                try (InputStream in = url.openStream()) {
                    String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                    if (!worthParsing.test(text)) {
                        continue;
                    }
                    Map<String, Object> metadata = MetadataJson.parseObject(text);
                    Object list = metadata.get("properties");
                    if (list instanceof List<?> entries) {
                        entries.forEach(entry -> properties.add((Map<String, Object>) entry));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + METADATA, e);
        }
        return properties;
    }

    /** Every key, in the dashed form of the metadata, sorted. */
    public List<String> names() {
        return List.copyOf(names);
    }

    boolean isEmpty() {
        return keys.isEmpty();
    }

    public boolean contains(String key) {
        ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
        return keys.contains(name) || openPrefixes.stream().anyMatch(prefix -> prefix.isAncestorOf(name));
    }

    /**
     * The valid key a typo most likely meant: the nearest by edit distance (a swap of two letters
     * counts 1) if near enough, else one that ends with what was written after {@code leaf.}
     * ({@code leaf.zk.address} → {@code leaf.snowflake.zk.address}).
     */
    Optional<String> closest(String key) {
        String written = uniform(key);
        int allowed = Math.max(2, written.length() / 8);
        Optional<String> nearest = names.stream()
                .min(Comparator.comparingInt((String name) -> distance(written, uniform(name))))
                .filter(name -> distance(written, uniform(name)) <= allowed);
        if (nearest.isPresent() || !written.startsWith("leaf.")) {
            return nearest;
        }
        String tail = written.substring("leaf".length());
        return names.stream().filter(name -> uniform(name).endsWith(tail)).findFirst();
    }

    /** Lower case without the separators that relaxed binding ignores. */
    private static String uniform(String key) {
        return key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
