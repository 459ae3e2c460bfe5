package org.leafid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ShardListKeysTest {

    @Test
    void keysAreSpelledAsTheRedisQueueServicesSpellThem() {
        assertThat(ShardListKeys.list(12, 63)).isEqualTo("id.gen.idList_12_63");
        assertThat(ShardListKeys.lock(0, 0)).isEqualTo("id.gen.lock_0_0");
    }

    @Test
    void onlyKeysOfTheirShapeNameAnApp() {
        assertThat(ShardListKeys.appIdOfList("id.gen.idList_255_7")).isEqualTo(OptionalInt.of(255));
        assertThat(ShardListKeys.appIdOfList("id.gen.idList_foo")).isEmpty();
        assertThat(ShardListKeys.appIdOfList("id.gen.idList_3_")).isEmpty();
        assertThat(ShardListKeys.appIdOfList("id.gen.idList__3")).isEmpty();
        assertThat(ShardListKeys.appIdOfList("id.gen.idList_3_x")).isEmpty();
        assertThat(ShardListKeys.appIdOfList("id.gen.lock_3_1")).isEmpty();
    }
}
