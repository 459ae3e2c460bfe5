'use strict';
// The buffer: batch sizes following the rate of use, prefetch, one fetch at a time, runs served
// arithmetically, IDs as bigint or decimal strings, the Accept header of each mode.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { setTimeout: sleep } = require('node:timers/promises');
const { LeafClient } = require('../lib');
const { FakeServer, Good, GoodShard, lines, ranges, RANGES } = require('../test-support/fake-servers');

const quiet = () => {};

async function withServer(behaviour, options, body) {
  const fake = await FakeServer.start(behaviour);
  const client = new LeafClient([fake.url], { log: quiet, ...options });
  try {
    await body(client, fake);
  } finally {
    client.close();
    await fake.close();
  }
}

test('IDs are bigints, exact past 2^53 and up to 2^63 - 1', { timeout: 10000 }, async () => {
  const start = 2n ** 63n - 1000n;
  await withServer(new Good(start), {}, async (client) => {
    const buffer = client.segment('t');
    const ids = await buffer.nextMany(999);
    assert.equal(ids[0], start);
    assert.equal(ids[998], 2n ** 63n - 2n);
    assert.ok(ids.every((id, i) => id === start + BigInt(i)));
  });
});

test("ids: 'string' gives decimal strings", { timeout: 10000 }, async () => {
  await withServer(new Good(9007199254740990n), { ids: 'string' }, async (client) => {
    const buffer = client.segment('t');
    assert.equal(await buffer.next(), '9007199254740990');
    assert.deepEqual(await buffer.nextMany(4), ['9007199254740991', '9007199254740992', '9007199254740993', '9007199254740994']);
    assert.equal(buffer.tryNext(), '9007199254740995');
  });
});

test('the first batch is 16; batches double while fetches come fast and halve when slow', { timeout: 20000 }, async () => {
  await withServer(new Good(), { targetFetchInterval: 50 }, async (client, fake) => {
    const buffer = client.segment('t');
    await buffer.nextMany(16 + 32 + 64 + 128);
    assert.deepEqual(fake.requests.map((r) => r.count).slice(0, 4), [16, 32, 64, 128]);
    // Slow use: one batch now and then, each fetch more than 4 intervals after the last.
    for (let i = 0; i < 3; i += 1) {
      await sleep(250);
      await buffer.nextMany(buffer.buffered + 1);
    }
    const counts = fake.requests.map((r) => r.count);
    assert.ok(counts[counts.length - 1] < 128, `batches did not shrink: ${counts}`);
  });
});

test('batches stop growing at maxBatch (lines) and maxRangeBatch (segment ranges)', { timeout: 20000 }, async () => {
  await withServer(new Good(), { maxRangeBatch: 100, maxBatch: 50 }, async (client, fake) => {
    await client.segment('t').nextMany(2000);
    assert.equal(Math.max(...fake.requests.map((r) => r.count)), 100);
    await client.snowflake().nextMany(2000);
    const snowflake = fake.requests.filter((r) => r.path.includes('snowflake'));
    assert.equal(Math.max(...snowflake.map((r) => r.count)), 50);
  });
});

test('Accept: ranges for segment and shard, lines for snowflake', { timeout: 10000 }, async () => {
  await withServer(new Good(), {}, async (client, fake) => {
    await client.segment('t').next();
    await client.snowflake().next();
    await client.shard(7).next().catch(() => {});
    assert.equal(fake.requests[0].accept, `${RANGES}, text/plain;q=0.5`);
    assert.equal(fake.requests[1].accept, 'text/plain');
    assert.equal(fake.requests[2].accept, `${RANGES}, text/plain;q=0.5`);
    assert.equal(fake.requests[1].path, '/api/snowflake/get/leaf');
  });
});

test('a server without ranges answers lines, read as well', { timeout: 10000 }, async () => {
  let next = 1;
  const old = (count) => {
    const ids = Array.from({ length: count }, () => next++);
    return lines(ids);
  };
  await withServer(old, {}, async (client) => {
    const ids = await client.segment('t').nextMany(5000);
    assert.ok(ids.every((id, i) => id === BigInt(i + 1)));
  });
});

test('an answer of several runs is served in order, across runs and answers', { timeout: 10000 }, async () => {
  let base = 0n;
  const gappy = (count) => {
    // count IDs in two runs with a hole of 10 between them.
    const half = Math.floor(count / 2);
    const first = base + 1n;
    const firstEnd = first + BigInt(half) - 1n;
    const second = firstEnd + 11n;
    const secondEnd = second + BigInt(count - half) - 1n;
    base = secondEnd;
    return ranges(count, half > 0 ? [[first, firstEnd], [second, secondEnd]] : [[second, secondEnd]]);
  };
  await withServer(gappy, {}, async (client) => {
    const buffer = client.segment('t');
    const ids = [await buffer.next(), ...await buffer.nextMany(500)];
    for (let i = 0; i < 200; i += 1) ids.push(await buffer.next());
    for (let i = 1; i < ids.length; i += 1) assert.ok(ids[i] > ids[i - 1]);
    assert.equal(new Set(ids).size, ids.length);
  });
});

test('tryNext: undefined when empty, and the fetch it starts fills the buffer', { timeout: 10000 }, async () => {
  await withServer(new Good(), {}, async (client, fake) => {
    const buffer = client.segment('t');
    assert.equal(buffer.tryNext(), undefined);
    while (buffer.buffered === 0) await sleep(5);
    assert.equal(fake.requests.length, 1);
    assert.equal(buffer.tryNext(), 1n);
    assert.equal(buffer.tryNext(), 2n);
  });
});

test('tryNext never throws a server\'s failure', { timeout: 10000 }, async () => {
  const client = new LeafClient(['http://127.0.0.1:1'], { log: quiet, maxWait: 100 });
  const buffer = client.segment('t');
  assert.equal(buffer.tryNext(), undefined);
  await sleep(300);
  assert.equal(buffer.tryNext(), undefined);
  client.close();
});

test('many callers on an empty buffer share one fetch at a time', { timeout: 20000 }, async () => {
  let inFlight = 0;
  let most = 0;
  const good = new Good();
  const slow = async (count, accept) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    await sleep(10);
    inFlight -= 1;
    return good.answer(count, accept);
  };
  await withServer(slow, { firstBatch: 4, maxRangeBatch: 8, prefetchThreshold: 0.5 }, async (client, fake) => {
    const buffer = client.segment('t');
    const all = await Promise.all(Array.from({ length: 50 }, () => buffer.nextMany(3)));
    const ids = all.flat();
    assert.equal(new Set(ids).size, 150);
    assert.equal(most, 1, 'two fetches of one buffer at once');
    assert.ok(fake.requests.length >= 150 / 8);
  });
});

test('the next batch is fetched in the background before the buffer runs out', { timeout: 10000 }, async () => {
  await withServer(new Good(), { firstBatch: 100, targetFetchInterval: 1, prefetchThreshold: 0.1 }, async (client, fake) => {
    const buffer = client.segment('t');
    await buffer.next();
    assert.equal(fake.requests.length, 1);
    // Down to 10 left: the prefetch starts, and its answer arrives while IDs are still held.
    await buffer.nextMany(89);
    assert.equal(buffer.buffered, 10);
    while (fake.requests.length < 2 || buffer.buffered <= 10) await sleep(5);
    assert.ok(buffer.buffered > 10);
    const ids = await buffer.nextMany(buffer.buffered);
    assert.equal(ids[0], 91n);
  });
});

test('without prefetch a fetch asks for no more than the waiting calls lack', { timeout: 10000 }, async () => {
  await withServer(new Good(), { firstBatch: 1000, prefetchThreshold: 0 }, async (client, fake) => {
    const ids = await client.segment('t').nextMany(3500);
    assert.equal(ids.length, 3500);
    const counts = fake.requests.map((r) => r.count);
    assert.equal(counts.reduce((a, b) => a + b, 0), 3500, `asked ${counts}`);
  });
});

test('shard: the gate pass goes in the query, one buffer per shard', { timeout: 10000 }, async () => {
  const { shardOf } = require('../lib');
  const good = new GoodShard(7, shardOf('alice@example.com'));
  await withServer(good, {}, async (client, fake) => {
    const a = client.shard(7, 'alice@example.com');
    assert.equal(client.shard(7, 'alice@example.com'), a);
    const ids = await a.nextMany(100);
    assert.ok(ids.every((id) => good.gave(id)));
    assert.equal(fake.requests[0].path, '/api/shard/get/7');
    assert.equal(fake.requests[0].query, '?gatePass=alice%40example.com&count=16');
  });
});

test('the first server is asked again after its back-off', { timeout: 10000 }, async () => {
  let failed = false;
  const good = new Good();
  const onceDown = (count, accept) => {
    if (!failed) {
      failed = true;
      return { status: 503, headers: {}, body: '' };
    }
    return good.answer(count, accept);
  };
  const first = await FakeServer.start(onceDown);
  const second = await FakeServer.start(new Good(10n ** 12n));
  const client = new LeafClient([first.url, second.url], { log: quiet, firstBatch: 1, prefetchThreshold: 0 });
  try {
    const buffer = client.segment('t');
    assert.equal(await buffer.next(), 10n ** 12n);
    await sleep(300);
    // Its back-off over, the preferred server is asked first again (its IDs, from 1, are behind the
    // second's and refused as such; the second serves).
    assert.equal(await buffer.next(), 10n ** 12n + 1n);
    assert.equal(client.badAnswers()[first.url].behind, 1);
    assert.equal(first.requests.length >= 2, true);
  } finally {
    client.close();
    await Promise.all([first.close(), second.close()]);
  }
});

test('keep-alive: batches reuse one connection', { timeout: 10000 }, async () => {
  await withServer(new Good(), { prefetchThreshold: 0, firstBatch: 1 }, async (client, fake) => {
    const sockets = new Set();
    fake.server.on('connection', (socket) => sockets.add(socket));
    const buffer = client.segment('t');
    for (let i = 0; i < 20; i += 1) await buffer.next();
    assert.equal(fake.requests.length, 20);
    assert.equal(sockets.size, 1);
  });
});
