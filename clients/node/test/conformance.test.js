'use strict';
// The client against servers that answer badly in one way each, listed first beside a good one:
// every ID it hands out comes from the good server, none twice, from many concurrent callers, and
// each bad answer is refused and counted.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { LeafClient, LeafUnavailableError, shardOf } = require('../lib');
const { FakeServer, Good, Recording, GoodShard, BAD, badShard } = require('../test-support/fake-servers');

const quiet = () => {};
const CALLERS = 8;

/** n IDs taken by CALLERS concurrent callers, some one at a time, some a few at once. */
async function takeConcurrently(buffer, n) {
  const issued = [];
  await Promise.all(Array.from({ length: CALLERS }, async (_, caller) => {
    const mine = [];
    while (mine.length < n / CALLERS) {
      if (caller % 2 === 0) mine.push(await buffer.next());
      else mine.push(...await buffer.nextMany(Math.min(7, n / CALLERS - mine.length)));
    }
    issued.push(...mine);
  }));
  return issued;
}

function refusedBy(client, url) {
  return Object.values(client.badAnswers()[url] ?? {}).reduce((sum, n) => sum + n, 0);
}

async function throughBadThenGood(behaviour, { mode = 'segment', n = 5000 } = {}) {
  const goodSource = new Good(1n);
  const bad = await FakeServer.start(behaviour, new Good(10n ** 15n));
  const good = await FakeServer.start(goodSource);
  const client = new LeafClient([bad.url, good.url], { requestTimeout: 500, maxWait: 5000, log: quiet });
  try {
    const buffer = mode === 'segment' ? client.segment('t') : client.snowflake('k');
    const issued = await takeConcurrently(buffer, n);
    assert.equal(issued.length, n);
    assert.equal(new Set(issued).size, issued.length, 'an ID handed out twice');
    for (const id of issued) {
      assert.equal(typeof id, 'bigint');
      assert.ok(id >= 1n && id < goodSource.next, `${id} is not an ID the good server gave`);
    }
    assert.ok(bad.requests.length > 0, 'the bad server was never asked');
    return { client, bad };
  } finally {
    client.close();
    await Promise.all([bad.close(), good.close()]);
  }
}

for (const behaviour of [...Object.keys(BAD), 'drip', 'endless']) {
  test(`a ${behaviour} server is refused and the good one serves`, { timeout: 30000 }, async () => {
    const { client, bad } = await throughBadThenGood(behaviour);
    if (behaviour === 'redirect') {
      // A redirect is a server's failure, not a bad answer: never followed, counted as one.
      assert.ok(client.serverFailures()[bad.url].redirect > 0);
    } else {
      assert.ok(refusedBy(client, bad.url) > 0, `no bad answer counted: ${JSON.stringify(client.badAnswers())}`);
    }
  });
}

test('the checks named for each bad server', { timeout: 60000 }, async () => {
  const expected = {
    garbage: 'format', zeros: 'increasing', decreasing: 'increasing', short: 'count', 'overlong-ranges': 'count',
    'ranges-miscounted': 'count', 'not-json': 'format', 'unsafe-json-number': 'format', negative: 'positive',
    'too-long-id': 'format', drip: 'deadline', endless: 'size',
  };
  for (const [behaviour, check] of Object.entries(expected)) {
    const { client, bad } = await throughBadThenGood(behaviour, { n: 200 });
    assert.ok(client.badAnswers()[bad.url]?.[check] > 0, `${behaviour}: ${JSON.stringify(client.badAnswers())}`);
  }
});

test('snowflake: a bad server first is refused as well', { timeout: 30000 }, async () => {
  for (const behaviour of ['garbage', 'decreasing', 'short']) {
    const { client, bad } = await throughBadThenGood(behaviour, { mode: 'snowflake', n: 2000 });
    assert.ok(refusedBy(client, bad.url) > 0);
  }
});

test('a server replaying what another gave is refused', { timeout: 30000 }, async () => {
  const source = new Recording(1n);
  const good = await FakeServer.start(source);
  const replaying = await FakeServer.start('replay', source);
  const client = new LeafClient([good.url, replaying.url], { requestTimeout: 500, maxWait: 1000, log: quiet });
  try {
    const buffer = client.snowflake('k');
    const issued = [];
    for (let i = 0; i < 3000; i += 1) issued.push(await buffer.next());
    await good.close();
    await assert.rejects(async () => {
      for (;;) issued.push(await buffer.next());
    }, LeafUnavailableError);
    assert.equal(new Set(issued).size, issued.length);
    assert.ok(client.badAnswers()[replaying.url]?.behind > 0, JSON.stringify(client.badAnswers()));
  } finally {
    client.close();
    await replaying.close();
  }
});

for (const name of ['alternating', 'wrong-app', 'wrong-shard', 'repeated-in-answer']) {
  test(`shard: a server answering ${name} is refused`, { timeout: 30000 }, async () => {
    const gatePass = 'alice@example.com';
    const goodSource = new GoodShard(7, shardOf(gatePass));
    const bad = await FakeServer.start(badShard(name, goodSource));
    const good = await FakeServer.start(goodSource);
    const client = new LeafClient([bad.url, good.url], { requestTimeout: 500, maxWait: 5000, log: quiet });
    try {
      const buffer = client.shard(7, gatePass);
      // Many rounds of small batches, so that the bad server is asked again after its back-off.
      const issued = await takeConcurrently(buffer, 3000);
      assert.equal(new Set(issued).size, issued.length, 'an ID handed out twice');
      // The alternating server's first two answers are new, well-formed IDs of the shard, served
      // like any; what it must never do is serve one of them again.
      if (name !== 'alternating') {
        for (const id of issued) assert.ok(goodSource.gave(id), `${id} is not an ID the good server gave`);
      }
      const check = { alternating: 'repeated', 'wrong-app': 'app', 'wrong-shard': 'shard', 'repeated-in-answer': 'repeated' }[name];
      assert.ok(client.badAnswers()[bad.url]?.[check] > 0, JSON.stringify(client.badAnswers()));
      assert.ok(good.requests.every((r) => r.query.includes(`gatePass=${encodeURIComponent(gatePass)}`)));
    } finally {
      client.close();
      await Promise.all([bad.close(), good.close()]);
    }
  });
}

test('shard: alternating answers are caught even when the server is the only one', { timeout: 30000 }, async () => {
  const goodSource = new GoodShard(7, shardOf('x'));
  const bad = await FakeServer.start(badShard('alternating', goodSource));
  const client = new LeafClient([bad.url], { requestTimeout: 500, maxWait: 1500, log: quiet });
  try {
    const buffer = client.shard(7, 'x');
    const issued = [];
    await assert.rejects(async () => {
      for (;;) issued.push(await buffer.next());
    }, LeafUnavailableError);
    assert.equal(new Set(issued).size, issued.length);
    assert.ok(client.badAnswers()[bad.url].repeated > 0);
  } finally {
    client.close();
    await bad.close();
  }
});
