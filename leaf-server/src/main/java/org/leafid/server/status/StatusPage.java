package org.leafid.server.status;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.leafid.autoconfigure.segment.SegmentLoadOutcomes;
import org.leafid.core.segment.SegmentBufferView;
import org.leafid.core.worker.WorkerLease;

/**
 * The HTML of the status page, built from what {@link StatusPageController} read. Pure (no beans,
 * no clock), so the markup and its escaping can be checked without a server. Every value that
 * goes into the page passes through {@link #escape(String)}, even the ones whose form is
 * validated elsewhere, so a later change to those rules cannot open an injection.
 */
final class StatusPage {

    /** Seconds between the browser's reloads of the page. */
    static final int REFRESH_SECONDS = 5;

    private static final String STYLE = """
            :root{color-scheme:light;--ink:#1f2933;--muted:#6b7785;--line:#d9dee5;--bg:#f6f8fa;--ok:#1a7f37;\
            --off:#8c959f;--warn:#b35900;--bad:#c62828;--fill:#2f6fde}
            *{box-sizing:border-box}
            body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,\
            "Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg)}
            header{display:flex;align-items:baseline;gap:16px;flex-wrap:wrap;margin-bottom:16px}
            h1{margin:0;font-size:24px}
            h2{margin:0 0 10px;font-size:16px}
            .muted{color:var(--muted)}
            .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:16px;margin-bottom:16px}
            section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px 18px}
            dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0}
            dt{color:var(--muted)}
            dd{margin:0}
            code,.num{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
            .num{font-variant-numeric:tabular-nums;text-align:right;white-space:nowrap}
            .badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}
            .on{background:var(--ok)}
            .off{background:var(--off)}
            .bad{background:var(--bad)}
            .problem{color:var(--bad)}
            .scroll{overflow-x:auto}
            table{width:100%;border-collapse:collapse}
            th,td{padding:7px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}
            th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600}
            td code{white-space:nowrap}
            tbody tr:last-child td{border-bottom:none}
            .usage{display:flex;align-items:center;gap:10px;min-width:200px}
            .bar{flex:1;height:12px;background:#e6e9ee;border-radius:6px;overflow:hidden;min-width:100px}
            .fill{height:100%;background:var(--fill)}
            .fill.low{background:var(--warn)}
            .pct{white-space:nowrap;font-variant-numeric:tabular-nums;min-width:72px}
            ul.reasons{margin:4px 0 0;padding-left:18px}
            #shard{margin-top:16px}
            """;

    private StatusPage() {}

    /**
     * What the page shows.
     *
     * @param name {@code leaf.name}
     * @param renderedAt when the values were read
     */
    /** @param apiDocs whether the OpenAPI description is published ({@code leaf.http.api-docs}), so linked */
    record Model(String name, Instant renderedAt, ServerSection server, SegmentSection segment,
            SnowflakeSection snowflake, StatusPageShard.ShardSection shard,
            List<StatusPageFormats.FormatRow> formats, boolean apiDocs) {}

    /**
     * The server as a whole.
     *
     * @param version the build's version, or {@code development} when run from the classes
     * @param startedAt when the server started
     * @param dataSource the database: the H2 file, or the JDBC url without its password; null when none is used
     * @param lastMinute IDs per second and error answers of the API over the last minute
     */
    record ServerSection(String version, Instant startedAt, Readiness readiness, String dataSource,
            StatusPageTraffic.LastMinute lastMinute) {}

    /**
     * What {@code /actuator/health/readiness} says.
     *
     * @param reasons for each component that is not UP, its name and why
     */
    record Readiness(String status, List<String> reasons) {

        boolean up() {
            return "UP".equals(status);
        }
    }

    /**
     * Segment mode.
     *
     * @param tagsLoaded whether the tag list has been read from the store at least once
     * @param notLoadedReason why no tag can be served before the tag list is read, e.g. the database cannot be reached
     * @param views each tag's buffer, sorted by tag; empty when the mode is off
     * @param lastFailures each tag's last failed load since the start, also after a later success
     */
    record SegmentSection(boolean enabled, boolean tagsLoaded, String notLoadedReason, List<SegmentBufferView> views,
            Map<String, SegmentLoadOutcomes.Failure> lastFailures) {

        static SegmentSection disabled() {
            return new SegmentSection(false, false, null, List.of(), Map.of());
        }
    }

    /**
     * Snowflake mode.
     *
     * @param mode {@code leaf.snowflake.mode} as it is configured, e.g. {@code zk_normal}
     * @param instance the {@code ip:port} naming this instance, or null when unknown
     * @param lease the lease in force, or null when none is held
     * @param unavailableReason why no lease is held, when {@code lease} is null
     * @param layout the bit layout and its end, e.g. {@code 41/10/12 ms, ends 2080-07-10T17:30:30.209Z}
     */
    record SnowflakeSection(boolean enabled, String mode, String instance, WorkerLease lease,
            String unavailableReason, String layout) {}

    /** The whole page. */
    static String render(Model model) {
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>Leaf status</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        html.append("<header><h1>Leaf status</h1><span>instance <strong id=\"instance-name\">")
                .append(escape(model.name())).append("</strong></span><span class=\"muted\">read at ")
                .append(escape(model.renderedAt().toString())).append(" &middot; reloads every ")
                .append(REFRESH_SECONDS).append(" s</span>")
                .append(model.apiDocs() ? "<a id=\"api-docs\" href=\"/v3/api-docs\">HTTP API (OpenAPI)</a>" : "")
                .append("</header>\n");
        html.append("<div class=\"cards\">\n");
        modes(html, model);
        snowflake(html, model.snowflake(), model.renderedAt().toEpochMilli());
        StatusPageServer.server(html, model.server(), model.renderedAt());
        StatusPageServer.traffic(html, model.server().lastMinute());
        html.append("</div>\n");
        segment(html, model.segment());
        StatusPageShard.render(html, model.shard());
        StatusPageFormats.render(html, model.formats());
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    private static void modes(StringBuilder html, Model model) {
        SnowflakeSection snowflake = model.snowflake();
        html.append("<section id=\"modes\"><h2>Modes</h2><dl>\n<dt>Segment</dt><dd>")
                .append(onOff(model.segment().enabled())).append("</dd>\n<dt>Snowflake</dt><dd>")
                .append(onOff(snowflake.enabled()));
        if (snowflake.enabled()) {
            html.append(" mode <code>").append(escape(snowflake.mode())).append("</code>");
        }
        html.append("</dd>\n<dt>Shard</dt><dd>").append(onOff(model.shard().enabled()));
        if (model.shard().enabled()) {
            html.append(" buffer <code>").append(escape(model.shard().buffer())).append("</code>");
        }
        html.append("</dd>\n</dl></section>\n");
    }

    private static String onOff(boolean on) {
        return on ? "<span class=\"badge on\">on</span>" : "<span class=\"badge off\">off</span>";
    }

    private static void snowflake(StringBuilder html, SnowflakeSection snowflake, long nowMillis) {
        html.append("<section id=\"snowflake\"><h2>Snowflake worker</h2>\n");
        if (!snowflake.enabled()) {
            html.append("<p class=\"muted\">Snowflake mode is disabled (<code>leaf.snowflake.enable=false</code>).")
                    .append("</p></section>\n");
            return;
        }
        html.append("<dl>\n");
        if (snowflake.layout() != null) {
            html.append("<dt>Layout</dt><dd id=\"layout\">").append(escape(snowflake.layout())).append("</dd>\n");
        }
        if (snowflake.instance() != null) {
            html.append("<dt>Instance</dt><dd><code>").append(escape(snowflake.instance())).append("</code></dd>\n");
        }
        WorkerLease lease = snowflake.lease();
        if (lease == null) {
            html.append("<dt>Worker id</dt><dd><span class=\"badge bad\">unavailable</span></dd>\n")
                    .append("<dt>Reason</dt><dd class=\"problem\" id=\"worker-unavailable\">")
                    .append(escape(snowflake.unavailableReason())).append("</dd>\n");
        } else {
            html.append("<dt>Worker id</dt><dd><strong id=\"worker-id\">").append(lease.workerId())
                    .append("</strong></dd>\n<dt>Reserved until</dt><dd><code id=\"reserved-until\">")
                    .append(escape(Instant.ofEpochMilli(lease.reservedUntilMillis()).toString()))
                    .append("</code></dd>\n");
            // The same rule as the readiness check: a held id whose reservation does not cover
            // the clock issues nothing, and the page should say so rather than look healthy.
            if (!lease.covers(nowMillis)) {
                String why = nowMillis < lease.validFromMillis()
                        ? "waiting for the clock to pass " + Instant.ofEpochMilli(lease.validFromMillis())
                        : "the reservation ended and could not be renewed; snowflake requests get 503";
                html.append("<dt>State</dt><dd class=\"problem\">").append(escape(why)).append("</dd>\n");
            }
        }
        html.append("</dl></section>\n");
    }

    private static void segment(StringBuilder html, SegmentSection segment) {
        html.append("<section id=\"segment\"><h2>Segment tags</h2>\n");
        if (!segment.enabled()) {
            html.append("<p class=\"muted\">Segment mode is disabled (<code>leaf.segment.enable=false</code>).</p>");
        } else if (!segment.tagsLoaded()) {
            html.append("<p class=\"problem\" id=\"segment-unavailable\">");
            if (segment.notLoadedReason() == null) {
                html.append("The tag list has not been read from <code>leaf_alloc</code> yet.");
            } else {
                html.append(escape(segment.notLoadedReason()));
            }
            html.append("</p>");
        } else if (segment.views().isEmpty()) {
            html.append("<p class=\"muted\">No tags: <code>leaf_alloc</code> has no rows.</p>");
        } else {
            // A narrow window scrolls the table rather than squeezing the bars to nothing.
            html.append("<div class=\"scroll\"><table>\n<thead><tr><th>Tag</th><th>Current block [start, end)</th>")
                    .append("<th class=\"num\">Remaining</th><th>Used</th><th>Next block ready</th>")
                    .append("<th class=\"num\">Step</th><th>Last load (UTC)</th></tr></thead>\n<tbody>\n");
            for (SegmentBufferView view : segment.views()) {
                row(html, view, segment.lastFailures().get(view.tag()));
            }
            html.append("</tbody>\n</table></div>");
        }
        html.append("</section>\n");
    }

    private static void row(StringBuilder html, SegmentBufferView view, SegmentLoadOutcomes.Failure lastFailure) {
        html.append("<tr><td><code>").append(escape(view.tag())).append("</code></td>");
        if (!view.initialized()) {
            // No block until the first request for the tag; the page must not load one.
            html.append("<td class=\"muted\">none loaded yet</td><td class=\"num\">&ndash;</td>")
                    .append("<td class=\"muted\">no block</td>");
        } else {
            long size = view.currentEnd() - view.currentStart();
            // The counter behind remaining can run past the block under contention; clamp for display.
            long remaining = Math.max(0, Math.min(size, view.currentRemaining()));
            html.append("<td class=\"num\">[").append(view.currentStart()).append(", ").append(view.currentEnd())
                    .append(")</td><td class=\"num\">").append(remaining).append("</td><td>");
            usageBar(html, size - remaining, size, view.nextReady());
            html.append("</td>");
        }
        html.append("<td>").append(view.nextReady() ? "yes" : view.loading() ? "no (loading)" : "no").append("</td>");
        html.append("<td class=\"num\">");
        if (view.step() <= 0) {
            html.append("&ndash;"); // the step is known from the first load on
        } else {
            html.append(view.step());
        }
        if (view.rowStep() > 0 && view.rowStep() != view.step()) {
            html.append(" <span class=\"muted\">(row ").append(view.rowStep()).append(")</span>");
        }
        html.append("</td><td><code>").append(view.lastLoadMillis() < 0 ? "never"
                : escape(Instant.ofEpochMilli(view.lastLoadMillis()).toString())).append("</code>");
        if (view.lastLoadFailure() != null) {
            html.append("<div class=\"problem\">last load failed: ")
                    .append(escape(lastFailure == null ? view.lastLoadFailure() : lastFailure.cause()));
            if (lastFailure != null) {
                html.append(" <span class=\"muted\">at ").append(escape(lastFailure.at().toString())).append("</span>");
            }
            html.append("</div>");
        } else if (lastFailure != null) {
            // Loads work again; the failure stays on the page so an operator sees there was one.
            html.append("<div class=\"muted\">last failed load ").append(escape(lastFailure.at().toString()))
                    .append(": ").append(escape(lastFailure.cause())).append("</div>");
        }
        html.append("</td></tr>\n");
    }

    /** A bar whose filled width is the used share, with the same share as text for screen readers and copy. */
    private static void usageBar(StringBuilder html, long used, long size, boolean nextReady) {
        double percent = size <= 0 ? 100.0 : used * 100.0 / size;
        String label = usedLabel(used, percent);
        // Mostly used with nothing loaded behind it: the next request may wait on the database.
        boolean low = percent >= 90.0 && !nextReady;
        html.append("<div class=\"usage\"><div class=\"bar\" role=\"progressbar\" aria-valuemin=\"0\" ")
                .append("aria-valuemax=\"100\" aria-valuenow=\"").append((int) percent).append("\" aria-label=\"")
                .append(label).append("\"><div class=\"fill").append(low ? " low" : "").append("\" style=\"width:")
                .append(String.format(Locale.ROOT, "%.2f", percent)).append("%\"></div></div><span class=\"pct\">")
                .append(label).append("</span></div>");
    }

    /** Whole percent, rounded down so that 100 % means spent; "&lt;1 %" so a started block never reads 0. */
    static String usedLabel(long used, double percent) {
        if (used > 0 && percent < 1.0) {
            return "&lt;1 % used";
        }
        return (int) percent + " % used";
    }

    /**
     * Escapes text for HTML element content and double- or single-quoted attribute values. Line breaks
     * and tabs become spaces (HTML shows them so anyway); other control characters (a NUL, ESC) become
     * U+FFFD: a name inserted into the tables with SQL may hold them, and shown raw they hide or garble
     * what follows.
     */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                case '\n', '\r', '\t' -> " ";
                default -> Character.isISOControl(c) ? "\uFFFD" : null;
            };
            if (replacement != null && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }
}
