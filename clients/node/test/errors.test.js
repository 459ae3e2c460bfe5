'use strict';
// Typed errors from problem+json answers, what is retried on the next server and what is not,
// back-off and Retry-After, and the bad arguments refused at once.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const {
  LeafClient, LeafError, LeafRequestError, LeafUnknownKeyError, LeafInvalidInputError, LeafLimitReachedError,
  LeafUnavailableError,
} = require('../lib');
const { Servers } = require('../lib/servers');
const { FakeServer, Good, problem } = require('../test-support/fake-servers');

const quiet = () => {};

async function withServers(behaviours, options, body) {
  const fakes = await Promise.all(behaviours.map((behaviour) => FakeServer.start(behaviour)));
  const client = new LeafClient(fakes.map((fake) => fake.url), { log: quiet, ...options });
  try {
    await body(client, fakes);
  } finally {
    client.close();
    await Promise.all(fakes.map((fake) => fake.close()));
  }
}

const refusing = (status, type, detail, headers) => () => problem(status, type, detail, headers);

test('404 unknown-tag: LeafUnknownKeyError at once, the next server not asked', { timeout: 10000 }, async () => {
  await withServers([refusing(404, 'unknown-tag', "Tag 'nope' is not in leaf_alloc"), new Good()], {}, async (client, [, second]) => {
    const error = await client.segment('nope').next().then(() => assert.fail('an ID'), (e) => e);
    assert.ok(error instanceof LeafUnknownKeyError && error instanceof LeafRequestError && error instanceof LeafError);
    assert.equal(error.status, 404);
    assert.equal(error.type, 'urn:leaf:problem:unknown-tag');
    assert.equal(error.detail, "Tag 'nope' is not in leaf_alloc");
    assert.equal(error.name, 'LeafUnknownKeyError');
    assert.equal(second.requests.length, 0);
  });
});

test('400: LeafInvalidInputError', { timeout: 10000 }, async () => {
  await withServers([refusing(400, 'invalid-gate-pass', 'too long')], {}, async (client) => {
    await assert.rejects(client.shard(1, 'x'.repeat(5000)).next(), (e) => e instanceof LeafInvalidInputError
      && e.status === 400 && e.type === 'urn:leaf:problem:invalid-gate-pass' && e.detail === 'too long');
  });
});

test('503 tag-exhausted and app-limit-reached: LeafLimitReachedError, not retried', { timeout: 10000 }, async () => {
  await withServers([refusing(503, 'tag-exhausted', 'move the tag', { 'Retry-After': '1' }), new Good()], {},
    async (client, [, second]) => {
      await assert.rejects(client.segment('t').next(), (e) => e instanceof LeafLimitReachedError && e.status === 503);
      assert.equal(second.requests.length, 0);
    });
  await withServers([refusing(503, 'app-limit-reached', 'no index left')], {}, async (client) => {
    await assert.rejects(client.shard(3).nextMany(2), LeafLimitReachedError);
  });
});

test('another 4xx: a plain LeafRequestError', { timeout: 10000 }, async () => {
  await withServers([refusing(403, 'forbidden', 'no')], {}, async (client) => {
    await assert.rejects(client.segment('t').next(), (e) => e.constructor === LeafRequestError && e.status === 403);
  });
});

test('a 4xx that is not problem+json keeps the body start as detail', { timeout: 10000 }, async () => {
  const plain = () => ({ status: 404, headers: { 'Content-Type': 'text/html' }, body: '<html>nope</html>' });
  await withServers([plain], {}, async (client) => {
    await assert.rejects(client.segment('t').next(), (e) => e instanceof LeafUnknownKeyError && e.type === ''
      && e.detail === '<html>nope</html>');
  });
});

test('every server down: LeafUnavailableError after maxWait, with each one\'s reason', { timeout: 10000 }, async () => {
  const down = refusing(503, 'store-unavailable', 'the database refused the connection');
  await withServers([down, down], { maxWait: 600 }, async (client, fakes) => {
    const started = performance.now();
    const error = await client.segment('t').next().then(() => assert.fail('an ID'), (e) => e);
    const waited = performance.now() - started;
    assert.ok(error instanceof LeafUnavailableError && error instanceof LeafError);
    assert.ok(waited >= 550 && waited < 3000, `waited ${waited} ms`);
    for (const fake of fakes) assert.match(error.message, new RegExp(`${fake.url}: HTTP 503 urn:leaf:problem:store-unavailable`));
    assert.equal(error.reasons.length, 2);
    assert.ok(error.detail.includes('store-unavailable'));
  });
});

test('no server listening: LeafUnavailableError', { timeout: 10000 }, async () => {
  const client = new LeafClient(['http://127.0.0.1:1'], { maxWait: 300, log: quiet });
  await assert.rejects(client.segment('t').next(), (e) => e instanceof LeafUnavailableError && /ECONNREFUSED/.test(e.message));
  assert.equal(client.serverFailures()['http://127.0.0.1:1'].connection > 0, true);
  client.close();
});

test('429, 408 and 5xx are retried on the next server', { timeout: 10000 }, async () => {
  for (const status of [429, 408, 500, 503]) {
    await withServers([refusing(status, 'x', 'busy'), new Good()], {}, async (client, [first, second]) => {
      assert.equal(await client.segment('t').next(), 1n);
      assert.equal(first.requests.length, 1);
      assert.equal(second.requests.length, 1);
      assert.equal(client.serverFailures()[first.url].status, 1);
    });
  }
});

test('Retry-After keeps a server out for that long; without it the back-off is 250 ms', { timeout: 10000 }, async () => {
  let answered = 0;
  const onceBusy = (count, accept) => (answered++ === 0
    ? problem(503, 'segment-not-ready', 'wait', { 'Retry-After': '2' }) : new Good(10n ** 9n).answer(count, accept));
  await withServers([onceBusy, new Good()], { firstBatch: 1, prefetchThreshold: 0, targetFetchInterval: 1 },
    async (client, [first]) => {
      const buffer = client.segment('t');
      const until = performance.now() + 800;
      while (performance.now() < until) {
        await buffer.next();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(first.requests.length, 1, 'asked again within its Retry-After');
    });
});

test('back-off doubles from 250 ms to 5 s; Retry-After is capped at 60 s', () => {
  const servers = new Servers(['http://127.0.0.1:1'], { connectTimeout: 1, requestTimeout: 1, maxWait: 1, log: null });
  const [server] = servers.servers;
  const seen = [];
  for (let i = 0; i < 7; i += 1) {
    const before = performance.now();
    servers.failed(server, 'test', 'status');
    seen.push(Math.round((server.downUntil - before) / 250) * 250);
  }
  assert.deepEqual(seen, [250, 500, 1000, 2000, 4000, 5000, 5000]);
  const before = performance.now();
  servers.failed(server, 'test', 'status', 60000);
  assert.ok(server.downUntil - before <= 60001);
  servers.close();
});

test('a batch refused as too large (invalid-count) halves the largest batch', { timeout: 10000 }, async () => {
  const good = new Good();
  const limited = (count, accept) => (count > 100
    ? problem(400, 'invalid-count', 'count is 1..100 (leaf.max-batch)') : good.answer(count, accept));
  await withServers([limited], { firstBatch: 400 }, async (client, [fake]) => {
    const ids = await client.segment('t').nextMany(1000);
    assert.equal(new Set(ids).size, 1000);
    assert.deepEqual(fake.requests.slice(0, 3).map((r) => r.count), [400, 200, 100]);
    assert.ok(fake.requests.slice(2).every((r) => r.count <= 100));
  });
});

test('a closed client serves nothing more', { timeout: 10000 }, async () => {
  await withServers([new Good()], {}, async (client) => {
    const buffer = client.segment('t');
    await buffer.next();
    client.close();
    await assert.rejects(buffer.next(), (e) => e instanceof LeafError && /closed/.test(e.message));
    assert.throws(() => client.segment('t'), LeafError);
  });
});

test('bad arguments throw at once', () => {
  assert.throws(() => new LeafClient([]), RangeError);
  assert.throws(() => new LeafClient(42), TypeError);
  assert.throws(() => new LeafClient(['ftp://x']), TypeError);
  assert.throws(() => new LeafClient(['http://h:1/?q=1']), TypeError);
  assert.throws(() => new LeafClient(['http://h:1'], { maxWiat: 1 }), TypeError);
  assert.throws(() => new LeafClient(['http://h:1'], { maxWait: -1 }), RangeError);
  assert.throws(() => new LeafClient(['http://h:1'], { maxWait: '5' }), TypeError);
  assert.throws(() => new LeafClient(['http://h:1'], { firstBatch: 1.5 }), RangeError);
  assert.throws(() => new LeafClient(['http://h:1'], { prefetchThreshold: 2 }), RangeError);
  assert.throws(() => new LeafClient(['http://h:1'], { ids: 'number' }), RangeError);
  const client = new LeafClient('http://h:1, http://h:2', { log: null });
  assert.throws(() => client.segment('bad tag!'), RangeError);
  assert.throws(() => client.segment('x'.repeat(129)), RangeError);
  assert.throws(() => client.segment(''), RangeError);
  assert.throws(() => client.segment(5), TypeError);
  assert.throws(() => client.snowflake('a/b'), RangeError);
  assert.throws(() => client.shard(256), RangeError);
  assert.throws(() => client.shard(-1), RangeError);
  assert.throws(() => client.shard(1.5), TypeError);
  assert.throws(() => client.shard('1'), TypeError);
  assert.throws(() => client.shard(1, ''), RangeError);
  assert.throws(() => client.shard(1, 5), TypeError);
  assert.throws(() => client.format('a b'), RangeError);
  assert.throws(() => client.nextString('a b'), RangeError);
  const buffer = client.segment('t');
  assert.throws(() => buffer.nextMany(0), RangeError);
  assert.throws(() => buffer.nextMany(2.5), RangeError);
  assert.throws(() => buffer.nextMany('3'), TypeError);
  assert.throws(() => client.format('f').nextStrings(0), RangeError);
  client.close();
});
