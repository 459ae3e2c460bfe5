package org.leafid.autoconfigure.snowflake;

import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.WorkerIdHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The one start-up line that says which worker id this instance issues with, in which mode, and
 * why that mode: a Leaf operator must see at a glance whether the drop-in took Leaf's rule.
 * Logged once every singleton is made, so after the holder has started.
 */
final class SnowflakeStartReport implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(SnowflakeStartReport.class);

    private final WorkerIdHolder holder;
    private final WorkerIdModeChoice choice;
    private final InstanceAddress instance;

    SnowflakeStartReport(WorkerIdHolder holder, WorkerIdModeChoice choice, InstanceAddress instance) {
        this.holder = holder;
        this.choice = choice;
        this.instance = instance;
    }

    @Override
    public void afterSingletonsInstantiated() {
        log.info("Snowflake: worker id {} in mode {} ({}), instance {}", holder.lease().workerId(),
                choice.mode().key(), choice.reason(), instance.key());
    }
}
