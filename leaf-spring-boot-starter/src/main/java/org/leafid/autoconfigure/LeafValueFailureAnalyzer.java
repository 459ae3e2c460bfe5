package org.leafid.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;

/**
 * A {@code leaf.*} value that does not convert ({@code leaf.snowflake.enable=maybe},
 * {@code leaf.snowflake.mode=bogus}, {@code report-interval=3 seconds}): the key, the value and
 * the values accepted, in the spelling {@code leaf.properties} uses. Boot's own analysis names
 * the key too, but lists modes as {@code ZK_NORMAL} and says only "Update your application's
 * configuration" for a switch. Other conversion failures are left to Boot.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
class LeafValueFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        String key = cause.getName().toString();
        ConversionFailedException conversion = findCause(cause, ConversionFailedException.class);
        Class<?> type = cause.getTarget().getType().resolve(Object.class);
        String accepted = accepted(type);
        if (!key.startsWith("leaf.") || conversion == null || accepted == null) {
            return null;
        }
        String origin = cause.getProperty() != null && cause.getProperty().getOrigin() != null
                ? " (" + cause.getProperty().getOrigin() + ")" : "";
        return new FailureAnalysis("Leaf configuration: " + key + "=" + conversion.getValue() + origin
                + " is not a value it accepts.", "Set " + key + " to " + accepted + ".", cause);
    }

    private static String accepted(Class<?> type) {
        if (type == Boolean.class || type == boolean.class) {
            return "true or false (on/off, yes/no and 1/0 are read the same way)";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants())
                    .map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
                    .collect(Collectors.joining(", ")) + " (case and '-' or '_' do not matter)";
        }
        if (type == Duration.class) {
            return "a duration such as 500ms, 30s, 2m or 1h";
        }
        return null;
    }
}
