package org.leafid.server.status;

import static org.leafid.server.status.StatusPage.escape;

import java.util.List;
import java.util.Locale;

/** The status page's formats table: each format's pattern, reset, zone, the period it issues in and how many it issued. */
final class StatusPageFormats {

    private StatusPageFormats() {}

    /**
     * One format.
     *
     * @param period the period of the last value issued ("" before the first, or without a reset)
     */
    record FormatRow(String name, String pattern, String reset, String zone, String period, long issued) {}

    static void render(StringBuilder html, List<FormatRow> formats) {
        html.append("<section id=\"formats\"><h2>Formats</h2>\n");
        if (formats.isEmpty()) {
            html.append("<p class=\"muted\">None configured (<code>leaf.formats.&lt;name&gt;.pattern</code>).</p>")
                    .append("</section>\n");
            return;
        }
        html.append("<div class=\"scroll\"><table>\n<thead><tr><th>Name</th><th>Pattern</th><th>Reset</th>")
                .append("<th>Zone</th><th>Period</th><th class=\"num\">Issued</th></tr></thead>\n<tbody>\n");
        for (FormatRow format : formats) {
            html.append("<tr id=\"format-").append(escape(format.name())).append("\"><td>").append(escape(format.name()))
                    .append("</td><td><code>").append(escape(format.pattern())).append("</code></td><td>")
                    .append(escape(format.reset())).append("</td><td>").append(escape(format.zone())).append("</td><td>")
                    .append(format.period().isEmpty() ? "&mdash;" : escape(format.period()))
                    .append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", format.issued()))
                    .append("</td></tr>\n");
        }
        html.append("</tbody>\n</table></div></section>\n");
    }
}
