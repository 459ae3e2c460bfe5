package org.leafid.server.disclosure;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.leafid.autoconfigure.jdbc.JdbcProperties.StoreProperties;
import org.leafid.jdbc.JdbcUrls;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * What a failure's text may show, and to whom. Every text that leaves the server in an answer
 * (problem details, readiness, the status page, {@code /api/segment/cache}) passes through here:
 * <ul>
 *   <li>to anyone, every secret the configuration holds is {@code ***}: the database, Redis and
 *       admin passwords, the opaque key, and each secret written into {@code leaf.jdbc.url}, in
 *       whatever form a driver quotes it;</li>
 *   <li>to a caller without the admin token, also no JDBC or Redis url, no host or IP address,
 *       no database name and no opaque key fingerprint: the store and the cause remain ("the
 *       database of leaf.jdbc.url refused the connection"), which is what a client needs to
 *       decide to retry, while the admin (and the log) see where.</li>
 * </ul>
 * Texts are failures' messages, built in many places; the configuration says which words in them
 * are this deployment's, so they are found exactly, with patterns only for what no key names (the
 * IP addresses a driver prints, other servers' fingerprints).
 */
@Component
public final class Disclosure {

    static final String HIDDEN = "***";
    static final String DATABASE_URL = "(the database of leaf.jdbc.url)";
    static final String HOST = "(host)";
    static final String DATABASE_NAME = "(database)";
    static final String FINGERPRINT = "(key fingerprint)";

    private static final Pattern JDBC_URL = Pattern.compile("jdbc:[A-Za-z0-9+_.-]+:[^\\s'\"<>]*");
    private static final Pattern REDIS_URL = Pattern.compile("rediss?://[^\\s'\"<>]*");
    private static final Pattern IPV4 = Pattern.compile("(?<![\\d.])(?:\\d{1,3}\\.){3}\\d{1,3}(?::\\d{1,5})?(?![\\d.])");
    /** Bracketed, or with "::", or of five groups or more: never a time of day such as 18:26:13. */
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.%]*:[0-9A-Fa-f:.%]*](?::\\d{1,5})?"
            + "|(?<![0-9A-Za-z:.])(?:(?:[0-9A-Fa-f]{1,4}:){4,7}[0-9A-Fa-f]{1,4}"
            + "|(?:[0-9A-Fa-f]{1,4}:)*[0-9A-Fa-f]{0,4}::(?:[0-9A-Fa-f]{1,4}:)*[0-9A-Fa-f]{0,4})(?![0-9A-Za-z:])");
    /** A fingerprint is 16 hex digits; one with a letter is never a decimal number, one after "key " never either. */
    private static final Pattern FINGERPRINTS = Pattern.compile(
            "(?:(?<=key )[0-9a-f]{16}|(?<![0-9A-Za-z])(?=[0-9]{0,15}[a-f])[0-9a-f]{16}(?![0-9A-Za-z]))"
                    + "(?:/max_limit_id=\\d+)?");
    /** The hosts of an authority: {@code //h1:p,user:pw@h2/…}, and the key-value forms {@code host=h}. */
    private static final Pattern AUTHORITY = Pattern.compile("//([^/?;]*)");
    private static final Pattern HOST_PROPERTY = Pattern.compile("(?i)host=([^)(,/&;]+)");
    private static final Pattern PATH_DATABASE = Pattern.compile("//[^/]*/([^/?;:]+)");

    private final List<String> secrets;
    private final List<String> hosts;
    private final List<String> databases;
    private final ObjectProvider<AdminCaller> admin;

    Disclosure(Environment environment, ObjectProvider<AdminCaller> admin) {
        this.admin = admin;
        // One database (leaf.jdbc.url) or several (leaf.jdbc.stores[k]): each url and password.
        List<String> jdbcUrls = new ArrayList<>(List.of(environment.getProperty("leaf.jdbc.url", "")));
        Set<String> secretSet = new LinkedHashSet<>();
        for (StoreProperties store : Binder.get(environment)
                .bind("leaf.jdbc.stores", Bindable.listOf(StoreProperties.class)).orElse(List.of())) {
            jdbcUrls.add(Objects.requireNonNullElse(store.url(), ""));
            secretSet.add(Objects.requireNonNullElse(store.password(), ""));
        }
        for (String jdbcUrl : jdbcUrls) {
            secretSet.addAll(JdbcUrls.secrets(jdbcUrl));
        }
        for (String key : List.of("leaf.jdbc.password", "spring.data.redis.password", "leaf.admin.token",
                "leaf.shard.opaque-key")) {
            secretSet.add(environment.getProperty(key, ""));
        }
        secretSet.addAll(JdbcUrls.secrets(environment.getProperty("spring.data.redis.url", "")));
        secretSet.remove("");
        this.secrets = longestFirst(secretSet);

        Set<String> hostSet = new LinkedHashSet<>();
        for (String jdbcUrl : jdbcUrls) {
            hostSet.addAll(hostsOf(jdbcUrl));
        }
        hostSet.addAll(hostsOf(environment.getProperty("spring.data.redis.url", "")));
        hostSet.add(environment.getProperty("spring.data.redis.host", ""));
        for (String server : environment.getProperty("leaf.snowflake.zk.address", "").split(",")) {
            hostSet.add(server.strip().replaceFirst(":\\d+(/.*)?$", ""));
        }
        hostSet.removeIf(host -> host.isBlank() || host.equalsIgnoreCase("localhost"));
        this.hosts = longestFirst(hostSet);

        Set<String> databaseSet = new LinkedHashSet<>();
        for (String jdbcUrl : jdbcUrls) {
            Matcher database = PATH_DATABASE.matcher(jdbcUrl);
            if (database.find()) {
                databaseSet.add(database.group(1));
            }
        }
        this.databases = List.copyOf(databaseSet);
    }

    /** The text as the caller of {@code request} may see it: whole (secrets hidden) to the admin, else {@link #forAnonymous}. */
    public String shown(HttpServletRequest request, String text) {
        return toAdmin(request) ? masked(text) : forAnonymous(text);
    }

    /** Whether {@code request} carries the admin token (never, with no token configured). */
    public boolean toAdmin(HttpServletRequest request) {
        AdminCaller caller = admin.getIfAvailable();
        return caller != null && request != null && caller.isAdmin(request);
    }

    /** The text with every secret of the configuration as {@code ***}: what the admin and the log may see. */
    public String masked(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String shown = text;
        for (String secret : secrets) {
            shown = shown.replace(secret, HIDDEN);
        }
        return shown;
    }

    /** The text with no secret, url, host, IP address, database name or key fingerprint in it. */
    public String forAnonymous(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String shown = masked(text);
        shown = JDBC_URL.matcher(shown).replaceAll(Matcher.quoteReplacement(DATABASE_URL));
        shown = REDIS_URL.matcher(shown).replaceAll(Matcher.quoteReplacement("(the Redis of spring.data.redis.*)"));
        for (String database : databases) {
            for (String quote : List.of("'", "\"", "`")) {
                shown = shown.replace(quote + database + quote, quote + DATABASE_NAME + quote);
            }
        }
        for (String host : hosts) {
            shown = Pattern.compile("(?<![0-9A-Za-z_.-])" + Pattern.quote(host) + "(?::\\d{1,5})?(?![0-9A-Za-z_-])",
                    Pattern.CASE_INSENSITIVE).matcher(shown).replaceAll(Matcher.quoteReplacement(HOST));
        }
        shown = IPV4.matcher(shown).replaceAll(Matcher.quoteReplacement(HOST));
        shown = IPV6.matcher(shown).replaceAll(Matcher.quoteReplacement(HOST));
        return FINGERPRINTS.matcher(shown).replaceAll(Matcher.quoteReplacement(FINGERPRINT));
    }

    private static List<String> hostsOf(String url) {
        List<String> found = new ArrayList<>();
        if (url == null || url.isBlank()) {
            return found;
        }
        Matcher authority = AUTHORITY.matcher(url);
        if (authority.find()) {
            for (String part : authority.group(1).replace("[", "").replace("]", "").split(",")) {
                String host = part.substring(part.lastIndexOf('@') + 1);
                if (!host.contains("(") && !host.contains("=")) {
                    found.add(host.replaceFirst(":\\d+$", ""));
                }
            }
        }
        Matcher property = HOST_PROPERTY.matcher(url);
        while (property.find()) {
            found.add(property.group(1));
        }
        found.replaceAll(host -> host.strip().toLowerCase(Locale.ROOT));
        return found;
    }

    /** Longer first, so that a secret or host that contains another is replaced whole. */
    private static List<String> longestFirst(Set<String> words) {
        return words.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }
}
