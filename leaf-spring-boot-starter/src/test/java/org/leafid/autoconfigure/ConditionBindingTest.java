package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.leafid.autoconfigure.mode.WorkerIdModeCondition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.mock.env.MockEnvironment;

/** The conditions read switches and modes with the binder, as the records do. */
class ConditionBindingTest {

    @Test
    void switchValuesAreReadAsSpringsConverterReadsThem() {
        for (String on : new String[] {"true", "yes", "on", "1", "TRUE"}) {
            assertThat(LeafSwitchCondition.isOn(env("leaf.snowflake.enable", on), "leaf.snowflake.enable")).isTrue();
        }
        for (String off : new String[] {"false", "no", "off", "0"}) {
            assertThat(LeafSwitchCondition.isOn(env("leaf.snowflake.enable", off), "leaf.snowflake.enable")).isFalse();
        }
        assertThat(LeafSwitchCondition.isOn(new MockEnvironment(), "leaf.snowflake.enable")).isTrue();
        assertThatThrownBy(() -> LeafSwitchCondition.isOn(env("leaf.snowflake.enable", "maybe"), "leaf.snowflake.enable"))
                .isInstanceOf(BindException.class).hasMessageContaining("leaf.snowflake.enable");
    }

    @Test
    void everySpellingOfAModeIsThatMode() {
        for (String spelling : new String[] {"zk_normal", "zk-normal", "ZK_NORMAL", "Zk-Normal"}) {
            assertThat(WorkerIdModeCondition.choice(env("leaf.snowflake.mode", spelling)))
                    .isEqualTo(new WorkerIdModeChoice(WorkerIdMode.ZK_NORMAL, "leaf.snowflake.mode=zk_normal"));
        }
        assertThat(WorkerIdModeCondition.choice(env("leaf.snowflake.zk.address", "10.0.0.1:2181")).mode())
                .isEqualTo(WorkerIdMode.ZK_NORMAL);
        assertThat(WorkerIdModeCondition.choice(new MockEnvironment()).mode()).isEqualTo(WorkerIdMode.LOCAL);
    }

    private static MockEnvironment env(String key, String value) {
        return new MockEnvironment().withProperty(key, value);
    }
}
