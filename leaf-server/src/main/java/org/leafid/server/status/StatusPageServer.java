package org.leafid.server.status;

import static org.leafid.server.status.StatusPage.escape;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.leafid.server.status.StatusPage.Readiness;
import org.leafid.server.status.StatusPage.ServerSection;

/** The status page's cards about the server as a whole: readiness, version, uptime, data source, last minute. */
final class StatusPageServer {

    private StatusPageServer() {}

    static void server(StringBuilder html, ServerSection server, Instant now) {
        Readiness readiness = server.readiness();
        html.append("<section id=\"server\"><h2>Server</h2><dl>\n<dt>Readiness</dt><dd id=\"readiness\">")
                .append(readiness.up() ? "<span class=\"badge on\">UP</span>"
                        : "<span class=\"badge bad\">" + escape(readiness.status()) + "</span>");
        if (!readiness.reasons().isEmpty()) {
            html.append("<ul class=\"reasons problem\">");
            for (String reason : readiness.reasons()) {
                html.append("<li>").append(escape(reason)).append("</li>");
            }
            html.append("</ul>");
        }
        html.append("</dd>\n<dt>Version</dt><dd><code id=\"version\">").append(escape(server.version()))
                .append("</code></dd>\n<dt>Uptime</dt><dd id=\"uptime\">")
                .append(escape(uptime(Duration.between(server.startedAt(), now))))
                .append(" <span class=\"muted\">since ").append(escape(server.startedAt().toString()))
                .append("</span></dd>\n<dt>Data source</dt><dd><code id=\"data-source\">")
                .append(server.dataSource() == null ? "none (no mode uses a database)" : escape(server.dataSource()))
                .append("</code></dd>\n</dl></section>\n");
    }

    static void traffic(StringBuilder html, StatusPageTraffic.LastMinute lastMinute) {
        long seconds = lastMinute.window().toSeconds();
        html.append("<section id=\"traffic\"><h2>Last minute</h2><dl>\n<dt>IDs per second</dt>")
                .append("<dd class=\"num\" id=\"ids-per-second\">")
                .append(String.format(Locale.ROOT, "%.1f", lastMinute.idsPerSecond()))
                .append("</dd>\n<dt>4xx answers</dt><dd class=\"num\" id=\"client-errors\">")
                .append(lastMinute.clientErrors()).append("</dd>\n<dt>5xx answers</dt>")
                .append("<dd class=\"num\" id=\"server-errors\">").append(lastMinute.serverErrors())
                .append("</dd>\n</dl><p class=\"muted\">Over the last ").append(seconds)
                .append(" s of the API (probes not counted).</p></section>\n");
    }

    /** {@code 3 d 4 h}, {@code 2 h 5 min}, {@code 7 min 9 s}, {@code 12 s}: the two largest units. */
    static String uptime(Duration duration) {
        long s = Math.max(0, duration.toSeconds());
        if (s >= 86_400) {
            return s / 86_400 + " d " + s % 86_400 / 3600 + " h";
        }
        if (s >= 3600) {
            return s / 3600 + " h " + s % 3600 / 60 + " min";
        }
        if (s >= 60) {
            return s / 60 + " min " + s % 60 + " s";
        }
        return s + " s";
    }
}
