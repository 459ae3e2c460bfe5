'use strict';
// The leafid command against fake servers: one ID a line, batches of exactly what it prints,
// exit 1 with "leafid: <problem>" on stderr.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { FakeServer, Good, GoodShard, problem } = require('../test-support/fake-servers');
const { shardOf } = require('../lib');

const LEAFID = path.join(__dirname, '..', 'bin', 'leafid.js');

/** Runs the command without blocking this process's event loop, where the fake servers answer. */
function leafid(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [LEAFID, ...args], { timeout: 20000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

test('leafid --segment prints --count IDs, asking for exactly that many', { timeout: 30000 }, async () => {
  const fake = await FakeServer.start(new Good());
  try {
    const three = await leafid('--servers', fake.url, '--segment', 't', '--count', '3');
    assert.equal(three.code, 0, three.stderr);
    assert.equal(three.stdout, '1\n2\n3\n');
    assert.deepEqual(fake.requests.map((r) => r.count), [3]);
    const many = await leafid('--servers', `http://127.0.0.1:1,${fake.url}`, '--segment', 't', '--count', '2500');
    assert.equal(many.code, 0, many.stderr);
    const lines = many.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2500);
    assert.equal(lines[0], '4');
    assert.equal(lines[2499], '2503');
    const asked = fake.requests.slice(1).map((r) => r.count);
    assert.equal(asked[0], 1000);
    assert.equal(asked.reduce((a, b) => a + b, 0), 2500, `asked ${asked}`);
    const one = await leafid('--servers', fake.url, '--segment', 't');
    assert.equal(one.stdout, '2504\n');
  } finally {
    await fake.close();
  }
});

test('leafid --snowflake, --shard with a gate pass, --format', { timeout: 30000 }, async () => {
  const good = new GoodShard(7, shardOf('alice'));
  const formats = (count) => ({ status: 200, headers: { 'Leaf-Format': 'F{seq:3}' }, body: Array.from({ length: count }, (_, i) => `F00${i + 1}\n`).join('') });
  const handler = (count, accept, request) => {
    if (request.url.startsWith('/api/shard/')) return good.answer(count, accept);
    if (request.url.startsWith('/api/format/')) return formats(count);
    return new Good(10n ** 18n).answer(count, accept);
  };
  const fake = await FakeServer.start(handler);
  try {
    const snowflake = await leafid('--servers', fake.url, '--snowflake', 'k', '--count', '2');
    assert.equal(snowflake.stdout, '1000000000000000000\n1000000000000000001\n');
    const shard = await leafid('--servers', fake.url, '--shard', '7', '--gate-pass', 'alice', '--count', '5');
    assert.equal(shard.code, 0, shard.stderr);
    assert.ok(shard.stdout.trim().split('\n').every((id) => good.gave(BigInt(id))));
    const format = await leafid('--servers', fake.url, '--format', 'f', '--count', '2');
    assert.equal(format.stdout, 'F001\nF002\n');
  } finally {
    await fake.close();
  }
});

test('leafid: a refusal is exit 1 with the problem on stderr', { timeout: 30000 }, async () => {
  const fake = await FakeServer.start(() => problem(404, 'unknown-tag', "Tag 'nope' is not in leaf_alloc"));
  try {
    const unknown = await leafid('--servers', fake.url, '--segment', 'nope');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /^leafid: 404 urn:leaf:problem:unknown-tag: Tag 'nope' is not in leaf_alloc\n$/);
    const badTag = await leafid('--servers', fake.url, '--segment', 'bad tag');
    assert.equal(badTag.code, 1);
    assert.match(badTag.stderr, /^leafid: a tag is 1-128 characters/);
    const badApp = await leafid('--servers', fake.url, '--shard', '300');
    assert.equal(badApp.code, 1);
    assert.match(badApp.stderr, /^leafid: an app id is 0\.\.255/);
    const badUrl = await leafid('--servers', 'ftp://x', '--segment', 't');
    assert.equal(badUrl.code, 1);
    assert.match(badUrl.stderr, /^leafid: a server is an http:\/\/ URL/);
  } finally {
    await fake.close();
  }
});

test('leafid: a command line that is not one of its forms is exit 1 with the usage', { timeout: 30000 }, async () => {
  for (const args of [
    ['--segment', 't'],
    ['--servers', 'http://127.0.0.1:1'],
    ['--servers', 'http://127.0.0.1:1', '--segment', 't', '--snowflake', 'k'],
    ['--servers', 'http://127.0.0.1:1', '--segment', 't', '--count', '0'],
    ['--servers', 'http://127.0.0.1:1', '--segment', 't', '--gate-pass', 'p'],
    ['--servers', 'http://127.0.0.1:1', '--segment', 't', '--bogus'],
    ['--servers', 'http://127.0.0.1:1', '--shard', 'seven'],
  ]) {
    const out = await leafid(...args);
    assert.equal(out.code, 1, `${args.join(' ')}: ${out.stderr}`);
    assert.match(out.stderr, /^usage: leafid --servers/);
    assert.match(out.stderr, /\nleafid: .+\n$/);
  }
});
