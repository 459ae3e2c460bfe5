package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.LeafKeys;

/**
 * docs/configuration.md lists every {@code leaf.*} key with its type, default and description,
 * generated from the configuration metadata of every module (here, in the server's tests, all of it
 * is on the class path: the records' Javadoc, which the configuration processor copies, and
 * {@code additional-spring-configuration-metadata.json}). The table between the page's two markers
 * must be exactly what the metadata gives, so a key added, removed or changed without the page
 * fails here. {@code -Dleaftest.write-docs=true} rewrites the table instead.
 */
class ConfigurationReferenceTest {

    static final Path PAGE = Path.of("../docs/configuration.md");
    static final String BEGIN = "<!-- generated from the configuration metadata by ConfigurationReferenceTest: "
            + "edit the records' Javadoc, not this table -->";
    static final String END = "<!-- end of the generated table -->";

    @Test
    void pageListsEveryKeyOfTheMetadataAsTheMetadataHasIt() throws Exception {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        int begin = page.indexOf(BEGIN);
        int end = page.indexOf(END);
        assertThat(begin).as("%s has the marker %s", PAGE, BEGIN).isNotNegative();
        assertThat(end).as("%s has the marker %s", PAGE, END).isGreaterThan(begin);
        String written = page.substring(begin + BEGIN.length(), end);
        String generated = "\n" + table() + "\n";
        if (Boolean.getBoolean("leaftest.write-docs")) {
            Files.writeString(PAGE, page.substring(0, begin + BEGIN.length()) + generated + page.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertThat(written)
                .as("%s differs from the configuration metadata; regenerate it with "
                        + "./mvnw -pl leaf-server -am verify -Dtest=ConfigurationReferenceTest -Dleaftest.write-docs=true "
                        + "-Dit.test=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false",
                        PAGE)
                .isEqualTo(generated);
    }

    @Test
    void everyKeyTheServerAcceptsHasADescription() {
        assertThat(leafProperties().values())
                .allSatisfy(property -> assertThat(String.valueOf(property.get("description")))
                        .as("the description of %s", property.get("name"))
                        .isNotBlank()
                        .isNotEqualTo("null"));
    }

    /** The Markdown table: one row per key, sorted by key. */
    static String table() {
        StringBuilder table = new StringBuilder("| key | type | default | description |\n|---|---|---|---|\n");
        leafProperties().values().forEach(property -> table.append("| `").append(property.get("name")).append("` | ")
                .append(type(String.valueOf(property.get("type")))).append(" | ")
                .append(defaultValue(property.get("defaultValue"))).append(" | ")
                .append(description(property.get("description"))).append(" |\n"));
        return table.toString().stripTrailing();
    }

    /** The {@code leaf.*} entries of the metadata by name; a name given twice must be given the same way. */
    private static Map<String, Map<String, Object>> leafProperties() {
        Map<String, Map<String, Object>> properties = new TreeMap<>();
        for (Map<String, Object> property : LeafKeys.metadataProperties(ConfigurationReferenceTest.class.getClassLoader())) {
            String name = String.valueOf(property.get("name"));
            if (name.startsWith("leaf.")) {
                Map<String, Object> before = properties.putIfAbsent(name, property);
                assertThat(before == null || before.equals(property))
                        .as("%s is described twice, differently: %s and %s", name, before, property).isTrue();
            }
        }
        assertThat(properties).as("the configuration metadata on the class path").isNotEmpty();
        return properties;
    }

    static String type(String javaType) {
        return switch (javaType) {
            case "java.lang.String" -> "text";
            case "java.lang.Boolean" -> "boolean";
            case "java.lang.Integer", "java.lang.Long" -> "whole number";
            case "java.lang.Double" -> "number";
            case "java.time.Duration" -> "duration";
            case "java.time.LocalDate" -> "date (`2016-05-20`)";
            case "java.nio.file.Path" -> "path";
            case "java.util.List<java.lang.String>" -> "list of text, comma-separated";
            default -> javaType.startsWith("java.util.Map<java.lang.String,")
                    ? "entries by name: `<key>.<name>.<field>`"
                    : javaType.startsWith("java.util.List<org.leafid.")
                            ? "entries by index from 0: `<key>[k].<field>`" : enumValues(javaType);
        };
    }

    private static String enumValues(String javaType) {
        try {
            Class<?> type = Class.forName(javaType, false, ConfigurationReferenceTest.class.getClassLoader());
            assertThat(type.isEnum()).as("a type the page can name: %s", javaType).isTrue();
            return "one of " + Arrays.stream(type.getEnumConstants())
                    .map(constant -> "`" + ((Enum<?>) constant).name().toLowerCase(Locale.ROOT) + "`")
                    .collect(Collectors.joining(", "));
        } catch (ClassNotFoundException e) {
            throw new AssertionError("The metadata names a type that is not on the class path: " + javaType, e);
        }
    }

    private static String defaultValue(Object value) {
        if (value == null) {
            return "unset";
        }
        String text = value instanceof List<?> list
                ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
                : String.valueOf(value);
        return text.isEmpty() ? "empty" : "`" + text.replace("|", "\\|") + "`";
    }

    /** Javadoc made Markdown: {@code x} and {@link x} as code, one line, pipes escaped. */
    static String description(Object javadoc) {
        String text = String.valueOf(javadoc).replaceAll("\\s+", " ").strip();
        text = text.replaceAll("\\{@code ([^{}]*(\\{[^{}]*\\}[^{}]*)*)\\}", "`$1`");
        text = text.replaceAll("\\{@link(?:plain)? (?:[\\w.]*\\.)?([\\w#]+)[^}]*\\}", "`$1`");
        return text.replace("|", "\\|");
    }
}
