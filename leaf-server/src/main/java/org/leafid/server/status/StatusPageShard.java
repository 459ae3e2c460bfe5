package org.leafid.server.status;

import static org.leafid.server.status.StatusPage.escape;

import java.util.List;
import java.util.Locale;

/** The status page's shard-mode table: per app its shards, limit, headroom and, with Redis, queue length. */
final class StatusPageShard {

    /** Headroom below this is shown as a problem, as the alert rule LeafShardHeadroomLow (ops/prometheus/leaf-alerts.yml) fires. */
    static final double LOW_HEADROOM = 0.10;

    private StatusPageShard() {}

    /**
     * Shard mode.
     *
     * @param buffer where indexes come from: {@code memory}, {@code redis}, {@code memory (Redis down)}
     * @param apps each app, sorted by id
     * @param lastFailure why the last read of the app list failed, or null
     */
    record ShardSection(boolean enabled, String buffer, List<AppRow> apps, String lastFailure) {

        static ShardSection disabled() {
            return new ShardSection(false, null, List.of(), null);
        }
    }

    /**
     * One app.
     *
     * @param maxLimitId 0 for no limit
     * @param headroom the fraction of the index space not yet reserved
     * @param queueLength indexes waiting in its Redis lists, or -1 without Redis
     */
    record AppRow(int appId, String appName, int shards, long maxLimitId, double headroom, long queueLength) {}

    static void render(StringBuilder html, ShardSection shard) {
        html.append("<section id=\"shard\"><h2>Shard apps</h2>\n");
        if (!shard.enabled()) {
            html.append("<p class=\"muted\">Shard mode is off (<code>leaf.shard.enable</code>; unset, it is on only ")
                    .append("with the embedded database).</p></section>\n");
            return;
        }
        html.append("<p>Buffer: <code id=\"shard-buffer\">").append(escape(shard.buffer())).append("</code></p>\n");
        if (shard.lastFailure() != null) {
            html.append("<p class=\"problem\" id=\"shard-unavailable\">").append(escape(shard.lastFailure()))
                    .append("</p>\n");
        }
        if (shard.apps().isEmpty()) {
            html.append("<p class=\"muted\">No apps: <code>id_alloc</code> has no rows.</p></section>\n");
            return;
        }
        boolean queues = shard.apps().stream().anyMatch(app -> app.queueLength() >= 0);
        html.append("<div class=\"scroll\"><table>\n<thead><tr><th class=\"num\">App</th><th>Name</th>")
                .append("<th class=\"num\">Shards</th><th class=\"num\">max_limit_id</th><th>Headroom</th>");
        if (queues) {
            html.append("<th class=\"num\">In Redis lists</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (AppRow app : shard.apps()) {
            html.append("<tr id=\"app-").append(app.appId()).append("\"><td class=\"num\">").append(app.appId())
                    .append("</td><td>").append(escape(app.appName())).append("</td><td class=\"num\">")
                    .append(app.shards()).append("</td><td class=\"num\">")
                    .append(app.maxLimitId() == 0 ? "none" : String.format(Locale.ROOT, "%,d", app.maxLimitId()))
                    .append("</td><td").append(app.headroom() < LOW_HEADROOM ? " class=\"problem\"" : "").append(">")
                    .append(String.format(Locale.ROOT, "%.1f %%", app.headroom() * 100)).append("</td>");
            if (queues) {
                html.append("<td class=\"num\">").append(app.queueLength() < 0 ? "?" : Long.toString(app.queueLength()))
                        .append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table></div></section>\n");
    }
}
