package org.leafid.jdbc;

import com.mysql.cj.conf.ConnectionUrlParser;
import com.mysql.cj.conf.HostInfo;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JDBC urls as they may be shown: in logs, health details, problem details and the status page.
 *
 * <p>A MySQL url is read by Connector/J's own parser and written out again from what it found, with
 * every secret as {@code ***}, so each form the driver accepts is covered without a pattern per form:
 * {@code user:secret@host}, {@code address=(host=h)(password=s)}, {@code (host=h,password=s)}, a
 * secret on any host of a multi-host url, {@code ?password=}, {@code ?password1=}… (MFA) and the
 * key-store passwords. The url shown is the driver's reading of it (properties sorted by name), not
 * the text as typed. A url the driver cannot read shows its scheme only: what it carries is unknown.
 * H2 urls keep their database name; H2 reads every setting, a password included, after the first
 * {@code ;}, so nothing after it is shown.
 * A PostgreSQL url keeps its hosts and database; its query, where secrets go, is not shown.
 */
public final class JdbcUrls {

    private static final String HIDDEN = "***";
    /** The driver's name in {@code jdbc:name:…}; all that is shown of a url that cannot be read. */
    private static final Pattern SCHEME = Pattern.compile("^jdbc:[A-Za-z0-9+_.-]+:");
    /** The secret of a {@code user:secret@} authority, of any host of the url. */
    private static final Pattern USER_INFO = Pattern.compile("[/,(]{1}[^/@,()?;]*?:([^/@,()?;]*)@");
    /** A {@code password}-like property's value, up to the separators of every driver's syntax. */
    private static final Pattern SECRET_PROPERTY = Pattern.compile(
            "(?i)([a-z0-9_.-]*(?:password|passwd|pwd|secret)[a-z0-9_.-]*)=([^&;,)\\s]+)");

    private JdbcUrls() {}

    /** The url with every password it carries replaced by {@code ***}; null stays null. */
    public static String withoutPassword(String url) {
        if (url == null) {
            return null;
        }
        if (url.startsWith("jdbc:h2:")) {
            int settings = url.indexOf(';');
            return settings < 0 ? url : url.substring(0, settings);
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return postgresql(url);
        }
        try {
            if (ConnectionUrlParser.isConnectionStringSupported(url)) {
                return shown(ConnectionUrlParser.parseConnectionString(url));
            }
        } catch (RuntimeException unreadable) {
            // Connector/J refuses a malformed url with an exception whose message quotes the url: not shown.
        }
        return scheme(url);
    }

    /**
     * Every secret the url carries, as typed, for masking where the url's text may be quoted (a
     * driver's error message names the host it could not resolve, and PostgreSQL's driver takes a
     * {@code user:secret@host} authority for a host name): the password of a {@code user:secret@}
     * authority, the values of {@code password}-like properties in any of the drivers' forms
     * ({@code ?password=}, {@code (password=…)}, {@code ;PASSWORD=}), each also as URL-decoded.
     */
    public static List<String> secrets(String url) {
        List<String> secrets = new ArrayList<>();
        if (url == null) {
            return secrets;
        }
        Matcher userInfo = USER_INFO.matcher(url);
        while (userInfo.find()) {
            add(secrets, userInfo.group(1));
        }
        Matcher property = SECRET_PROPERTY.matcher(url);
        while (property.find()) {
            add(secrets, property.group(2));
        }
        return secrets;
    }

    /** {@code text} with every secret of {@code url} replaced by {@code ***}. */
    public static String masked(String text, String url) {
        if (text == null) {
            return null;
        }
        String masked = text;
        for (String secret : secrets(url)) {
            masked = masked.replace(secret, HIDDEN);
        }
        return masked;
    }

    private static void add(List<String> secrets, String secret) {
        if (secret == null || secret.isEmpty()) {
            return;
        }
        secrets.add(secret);
        try {
            String decoded = URLDecoder.decode(secret, StandardCharsets.UTF_8);
            if (!decoded.equals(secret)) {
                secrets.add(decoded);
            }
        } catch (IllegalArgumentException notEncoded) {
            // A '%' not followed by two hex digits: the secret is used as typed, already listed.
        }
    }

    /**
     * Whether the url is Connector/J's failover list ({@code jdbc:mysql://h1,h2/…}, several hosts) without
     * {@code failOverReadOnly=false}: then every connection to a host but the first, once the first has
     * failed, is read-only, and no block could be reserved until the first host is back.
     */
    public static boolean readOnlyAfterFailover(String url) {
        if (url == null || !url.startsWith("jdbc:mysql://") || malformed(url)) {
            return false;
        }
        ConnectionUrlParser parsed = ConnectionUrlParser.parseConnectionString(url);
        String failOverReadOnly = parsed.getProperties().get("failOverReadOnly");
        return parsed.getHosts().size() > 1 && !"false".equalsIgnoreCase(failOverReadOnly);
    }

    /**
     * Whether Connector/J takes the url for its own but cannot read it: then its failures quote the url
     * where it stopped reading ("near '(password=…'"), and must not be shown either.
     */
    public static boolean malformed(String url) {
        if (url == null || !ConnectionUrlParser.isConnectionStringSupported(url)) {
            return false;
        }
        try {
            // The parser reads the hosts and the properties only when asked for them.
            ConnectionUrlParser parsed = ConnectionUrlParser.parseConnectionString(url);
            parsed.getHosts();
            parsed.getProperties();
            return false;
        } catch (RuntimeException unreadable) {
            return true;
        }
    }

    /**
     * PostgreSQL's url without its query, where its driver reads {@code password}, {@code sslpassword}
     * and the rest; hosts, ports and the database are kept. A {@code user:secret@} before the hosts,
     * which the driver does not read but a person may write, is dropped too.
     */
    private static String postgresql(String url) {
        int query = url.indexOf('?');
        String shown = query < 0 ? url : url.substring(0, query);
        int at = shown.lastIndexOf('@');
        if (at >= 0 && shown.startsWith("jdbc:postgresql://")) {
            shown = "jdbc:postgresql://" + shown.substring(at + 1);
        }
        return shown;
    }

    private static String shown(ConnectionUrlParser parsed) {
        List<String> hosts = new ArrayList<>();
        for (HostInfo host : parsed.getHosts()) {
            hosts.add(host.getHost() == null ? keyValueHost(host.getHostProperties()) : plainHost(host));
        }
        StringBuilder shown = new StringBuilder(parsed.getScheme()).append("//").append(String.join(",", hosts));
        if (parsed.getPath() != null) {
            shown.append('/').append(parsed.getPath());
        }
        List<String> query = new ArrayList<>();
        sorted(parsed.getProperties()).forEach((key, value) -> query.add(value == null ? key : key + "=" + value));
        if (!query.isEmpty()) {
            shown.append('?').append(String.join("&", query));
        }
        return shown.toString();
    }

    /** {@code user:***@host:port}, the form of the url's authority. */
    private static String plainHost(HostInfo host) {
        String name = host.getHost(); // an IPv6 address keeps its brackets
        String port = host.getPort() == HostInfo.NO_PORT ? "" : ":" + host.getPort();
        String user = host.getUser() == null ? "" : host.getUser() + (host.getPassword() == null ? "" : ":" + HIDDEN);
        return (user.isEmpty() ? "" : user + "@") + name + port;
    }

    /** {@code (host=h,port=p,password=***)}, the driver's key-value form, for both of its spellings. */
    private static String keyValueHost(Map<String, String> properties) {
        List<String> pairs = new ArrayList<>();
        sorted(properties).forEach((key, value) -> pairs.add(key + "=" + value));
        return "(" + String.join(",", pairs) + ")";
    }

    /** The properties by name, each secret's value hidden (its key kept, so the reader sees one is set). */
    private static Map<String, String> sorted(Map<String, String> properties) {
        Map<String, String> sorted = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        properties.forEach((key, value) -> sorted.put(key, secret(key) && value != null ? HIDDEN : value));
        return sorted;
    }

    /** Connector/J's {@code password}, {@code password1..3} and key-store passwords, and the usual aliases. */
    private static boolean secret(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return lower.contains("password") || lower.equals("pwd") || lower.equals("passwd") || lower.contains("secret");
    }

    private static String scheme(String url) {
        Matcher scheme = SCHEME.matcher(url);
        return scheme.find() ? scheme.group() : "(a url that cannot be read)";
    }
}
