package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** {@link MetadataJson} reads what Jackson reads, on every metadata file of the class path and on the corners of JSON. */
class MetadataJsonTest {

    private static final JsonMapper JACKSON = JsonMapper.builder().build();

    @Test
    void readsEveryMetadataFileOfTheClassPathAsJacksonDoes() throws Exception {
        List<URL> files = Collections.list(getClass().getClassLoader().getResources(LeafKeys.METADATA));
        // Spring Boot's own modules and Leaf's: several hundred kB of real metadata.
        assertThat(files).hasSizeGreaterThan(5);
        for (URL file : files) {
            String text;
            try (InputStream in = file.openStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertThat(normalized(MetadataJson.parseObject(text))).as(file.toString())
                    .isEqualTo(normalized(JACKSON.readValue(text, Map.class)));
        }
    }

    @Test
    void readsEscapesNumbersLiteralsAndNesting() {
        String text = "{ \"s\": \"a\\\"b\\\\c\\/d\\n\\t\\u00e9\", \"n\": [1, -2, 3.5, 1e3], "
                + "\"t\": true, \"f\": false, \"z\": null, \"o\": {\"e\": {}, \"a\": []} }";
        Map<String, Object> read = MetadataJson.parseObject(text);
        assertThat(read.get("s")).isEqualTo("a\"b\\c/d\n\té");
        assertThat(normalized(read)).isEqualTo(normalized(JACKSON.readValue(text, Map.class)));
        assertThat(read).containsKeys("t", "f", "z", "o");
        assertThat(read.get("z")).isNull();
    }

    @Test
    void refusesWhatIsNotOneJsonObject() {
        for (String bad : new String[] {"", "[]", "{", "{\"a\" 1}", "{\"a\": 1,}", "{\"a\": tru}", "{\"a\": \"x}",
                "{\"a\": 1} {}", "{\"a\": \"\\q\"}", "{\"a\": -}"}) {
            assertThatThrownBy(() -> MetadataJson.parseObject(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not valid JSON");
        }
    }

    /** Numbers as BigDecimal (Jackson reads 1 as Integer, this reader as Long), in maps and lists alike. */
    private static Object normalized(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((key, item) -> out.put(key, normalized(item)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(MetadataJsonTest::normalized).toList();
        }
        if (value instanceof Number number) {
            return new BigDecimal(number.toString()).stripTrailingZeros();
        }
        return value;
    }
}
