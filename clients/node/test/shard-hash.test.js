'use strict';
// The shard of a gate pass, as the server computes it: Math.abs(gatePass.hashCode()) % 64 with
// Java's String.hashCode over UTF-16 code units as an int32. Vectors worked out by hand.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { javaStringHashCode, shardOf } = require('../lib');

const VECTORS = [
  // [text, hashCode, shard, how]
  ['', 0, 0, 'no code unit'],
  ['a', 97, 33, '97 = 1·64 + 33'],
  ['x', 120, 56, '120 = 1·64 + 56'],
  ['abc', 96354, 34, '(97·31 + 98)·31 + 99 = 96354 = 1505·64 + 34'],
  ['Aa', 2112, 0, '65·31 + 97 = 2112 = 33·64'],
  ['BB', 2112, 0, '66·31 + 66 = 2112: the classic collision with "Aa"'],
  ['\u{1F600}', 1772899, 35, 'two UTF-16 code units: 0xD83D·31 + 0xDE00 = 1772899 = 27701·64 + 35'],
  ['zzzzzzz', 215481018, 58, 'Σ 122·31^k (k < 7) = 111884630714, mod 2^32 = 215481018'],
  ['gate-pass-ü', -1277895294, 62, 'mod 2^32 = 3017072002, as int32 -1277895294; |h| = 19967113·64 + 62'],
  ['polygenelubricants', -2147483648, 0, 'Integer.MIN_VALUE: Math.abs leaves it negative, and MIN_VALUE % 64 is 0'],
];

for (const [text, hash, shard, how] of VECTORS) {
  test(`hashCode and shard of ${JSON.stringify(text)} (${how})`, () => {
    assert.equal(javaStringHashCode(text), hash);
    assert.equal(shardOf(text), shard);
  });
}

test('every shard is 0..63', () => {
  for (let i = 0; i < 10000; i += 1) {
    const shard = shardOf(`user-${i}@example.com`);
    assert.ok(Number.isInteger(shard) && shard >= 0 && shard < 64);
  }
});
