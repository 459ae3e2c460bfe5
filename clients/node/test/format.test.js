'use strict';
// Format strings through the client: batches, the pattern kept across servers, failover on a bad answer.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { LeafClient } = require('../lib');
const { FakeServer } = require('../test-support/fake-servers');

const quiet = () => {};

function formatServer(pattern, start = 1) {
  let next = start;
  return (count) => {
    const strings = Array.from({ length: count }, () => `O2026${String(next++).padStart(6, '0')}`);
    return { status: 200, headers: { 'Content-Type': 'text/plain', ...(pattern ? { 'Leaf-Format': pattern } : {}) }, body: `${strings.join('\n')}\n` };
  };
}

test('format strings: nextString, nextStrings, from many callers, none twice', { timeout: 10000 }, async () => {
  const fake = await FakeServer.start(formatServer('O{yyyy}{seq:6}'));
  const client = new LeafClient([fake.url], { log: quiet });
  try {
    assert.equal(await client.nextString('o'), 'O2026000001');
    const strings = await client.format('o').nextStrings(40);
    assert.equal(strings[0], 'O2026000002');
    const many = await Promise.all(Array.from({ length: 20 }, () => client.format('o').nextString()));
    const all = ['O2026000001', ...strings, ...many];
    assert.equal(new Set(all).size, all.length);
    assert.equal(fake.requests[0].path, '/api/format/get/o');
    assert.equal(fake.requests[0].accept, 'text/plain');
  } finally {
    client.close();
    await fake.close();
  }
});

test('format: a server without the header, or with another pattern, is refused', { timeout: 10000 }, async () => {
  const good = await FakeServer.start(formatServer('O{yyyy}{seq:6}'));
  const noHeader = await FakeServer.start(formatServer(undefined, 500000));
  const otherPattern = await FakeServer.start(formatServer('X{seq:6}', 600000));
  const client = new LeafClient([good.url, noHeader.url, otherPattern.url], { log: quiet, maxWait: 1000 });
  try {
    await client.format('o').nextStrings(10);
    await good.close();
    // The pattern seen first is kept: a server with no header or another pattern serves nothing.
    await assert.rejects(client.format('o').nextStrings(100), /no Leaf server answered well/);
    assert.equal(client.badAnswers()[noHeader.url].pattern > 0, true);
    assert.equal(client.badAnswers()[otherPattern.url].pattern > 0, true);
  } finally {
    client.close();
    await Promise.all([noHeader.close(), otherPattern.close()]);
  }
});
