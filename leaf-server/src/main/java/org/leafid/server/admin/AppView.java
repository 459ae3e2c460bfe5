package org.leafid.server.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.leafid.core.shard.ShardApp;

/** An app as created: {@code maxLimitId} as a string, since it may pass 2^53. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record AppView(int appId, String appName, int shards, int step, String maxLimitId, String description) {

    static AppView of(ShardApp app, String description) {
        List<Integer> shards = app.shards();
        return new AppView(app.appId(), app.appName(), shards.size(), app.step(), Long.toString(app.maxLimitId()),
                description);
    }
}
