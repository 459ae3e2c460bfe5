package org.leafid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.leafid.core.shard.ShardBlock;
import org.leafid.testing.RedisServerProcess;
import org.springframework.data.redis.core.RedisCallback;

/**
 * The pop's guard on a real master and replica: the replica receives the list and its guard hash,
 * but not the mark only the popping process writes, so once promoted it refuses to serve its copy;
 * the master goes on serving. A list put back below what was popped is refused too.
 */
class RedisShardListsReplicaTest {

    private static final String LIST = ShardListKeys.list(9401, 0);

    @Test
    void aPromotedReplicaRefusesItsCopyOfAListWhileTheMasterServesOn() throws Exception {
        try (RedisServerProcess master = RedisServerProcess.start();
                RedisServerProcess replica = RedisServerProcess.startReplicaOf(master.port());
                TestRedis toMaster = new TestRedis(master.port());
                TestRedis toReplica = new TestRedis(replica.port())) {
            RedisShardLists onMaster = new RedisShardLists(toMaster.template());
            onMaster.push(LIST, new ShardBlock(9401, 0, 1, 100, 100));
            RedisShardLists.Popped first = onMaster.pop(LIST, 10);
            assertThat(first.refusal()).isEqualTo(RedisShardLists.Refusal.NONE);
            assertThat(first.values()).containsExactlyElementsOf(IntStream.rangeClosed(1, 10).mapToObj(Integer::toString).toList());
            Awaitility.await("the replica's copy").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> Long.valueOf(90).equals(toReplica.template().opsForList().size(LIST))
                            && "10".equals(toReplica.template().opsForHash().get(ShardListKeys.guard(LIST), "popped")));
            assertThat(toReplica.template().opsForHash().hasKey(ShardListKeys.guard(LIST), "here"))
                    .as("the mark, never replicated").isFalse();

            toReplica.template().execute((RedisCallback<Void>) connection -> {
                connection.serverCommands().replicaOfNoOne();
                return null;
            });
            RedisShardLists onPromoted = new RedisShardLists(toReplica.template());
            assertThat(onPromoted.pop(LIST, 10).refusal()).isEqualTo(RedisShardLists.Refusal.OTHER_PROCESS);
            assertThat(toReplica.template().opsForList().size(LIST)).as("nothing popped").isEqualTo(90);

            RedisShardLists.Popped onOldMaster = onMaster.pop(LIST, 5);
            assertThat(onOldMaster.refusal()).isEqualTo(RedisShardLists.Refusal.NONE);
            assertThat(onOldMaster.values()).containsExactly("11", "12", "13", "14", "15");

            toMaster.template().opsForList().leftPushAll(LIST, "14", "15"); // put back: 15, 14 at the head
            assertThat(onMaster.pop(LIST, 1).refusal()).isEqualTo(RedisShardLists.Refusal.PUT_BACK);
        }
    }
}
