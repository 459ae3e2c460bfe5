package org.leafid.autoconfigure.example;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The page docs/embedding.md, read as a reader follows it: its fenced blocks are what the example's
 * tests run, so the page cannot drift from them.
 */
final class EmbeddingDoc {

    static final Path PAGE = Path.of("../docs/embedding.md");

    private EmbeddingDoc() {
    }

    static List<String> lines() {
        try {
            return Files.readAllLines(PAGE, StandardCharsets.UTF_8).stream().map(String::stripTrailing).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + PAGE, e);
        }
    }

    /** The lines of the page's only fenced block of {@code language}; fails if there is none or several. */
    static List<String> block(String language) {
        List<List<String>> blocks = new ArrayList<>();
        List<String> current = null;
        for (String line : lines()) {
            if (current == null && line.equals("```" + language)) {
                current = new ArrayList<>();
            } else if (current != null && line.equals("```")) {
                blocks.add(current);
                current = null;
            } else if (current != null) {
                current.add(line);
            }
        }
        if (blocks.size() != 1) {
            throw new IllegalStateException(PAGE + " has " + blocks.size() + " ```" + language + " blocks, not one");
        }
        return blocks.get(0);
    }

    /** The {@code key=value} lines of the page's properties block, in their order. */
    static Map<String, String> properties() {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String line : block("properties")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int equals = line.indexOf('=');
                properties.put(line.substring(0, equals).strip(), line.substring(equals + 1).strip());
            }
        }
        return properties;
    }
}
