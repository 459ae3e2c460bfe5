package org.leafid.jdbc;

import java.util.regex.Pattern;

/** JDBC urls as they may be shown: in logs, health details and the status page. */
public final class JdbcUrls {

    /** {@code password=…} (or {@code pwd}, {@code passwd}) in a query string or property list. */
    private static final Pattern PASSWORD_PARAMETER =
            Pattern.compile("(?i)([?&;])(password|passwd|pwd|\\w*Password)=[^&;]*");
    /** {@code user:secret@host} in the authority of {@code jdbc:mysql://…}. */
    private static final Pattern USER_INFO_SECRET = Pattern.compile("(//[^/:@]*):[^/@]*@");

    private JdbcUrls() {}

    /** The url with every password it carries replaced by {@code ***}; null stays null. */
    public static String withoutPassword(String url) {
        if (url == null) {
            return null;
        }
        String stripped = PASSWORD_PARAMETER.matcher(url).replaceAll("$1$2=***");
        return USER_INFO_SECRET.matcher(stripped).replaceFirst("$1:***@");
    }
}
