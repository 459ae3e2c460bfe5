'use strict';
// Reading answers (ranges and lines) and the checks against what was accepted before.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Kind, parse, firstShared, SHARD_STRIDE, RANGES } = require('../lib/answers');
const { History, FormatHistory, RECENT_ANSWERS } = require('../lib/checks');
const { BadAnswer } = require('../lib/errors');

const segment = new Kind('segment', { increasing: true });
const shard = (app, shardNumber) => new Kind('shard', { increasing: false, stride: SHARD_STRIDE, app, shard: shardNumber });
const json = (value) => Buffer.from(JSON.stringify(value));
const text = (value) => Buffer.from(value);

function refused(check, fn) {
  assert.throws(fn, (e) => e instanceof BadAnswer && e.check === check, `not refused as ${check}`);
}

test('ranges: runs kept as they are, IDs past 2^53 exact', () => {
  const runs = parse(json({ count: 1000, ranges: [['9007199254740993', '9007199254741992']] }), RANGES, 1000, segment);
  assert.deepEqual(runs, [[9007199254740993n, 9007199254741992n, 1n]]);
  const two = parse(json({ count: 5, ranges: [['1', '2'], ['10', '12']] }), `${RANGES}; charset=utf-8`, 5, segment);
  assert.deepEqual(two, [[1n, 2n, 1n], [10n, 12n, 1n]]);
  const top = parse(json({ count: 2, ranges: [['9223372036854775806', '9223372036854775807']] }), RANGES, 2, segment);
  assert.equal(top[0][1], 9223372036854775807n);
});

test('ranges: shard runs step by 16384', () => {
  const first = (1n << 14n) | (5n << 8n) | 7n;
  const runs = parse(json({ count: 3, stride: '16384', ranges: [[String(first), String(first + 2n * SHARD_STRIDE)]] }), RANGES, 3, shard(7, 5));
  assert.deepEqual(runs, [[first, first + 2n * SHARD_STRIDE, SHARD_STRIDE]]);
  refused('format', () => parse(json({ count: 2, ranges: [[String(first), String(first + 1n)]] }), RANGES, 2, shard(7, 5)));
});

test('ranges: badly formed, miscounted, overlong or out of order are refused', () => {
  refused('format', () => parse(text('{"count": 3'), RANGES, 3, segment));
  refused('format', () => parse(json({ count: 3 }), RANGES, 3, segment));
  refused('format', () => parse(json({ count: 3, ranges: [['1', '2', '3']] }), RANGES, 3, segment));
  refused('format', () => parse(json({ count: 3, ranges: [['0x1', '3']] }), RANGES, 3, segment));
  refused('format', () => parse(json({ count: 3, ranges: [[' 1', '3']] }), RANGES, 3, segment));
  refused('format', () => parse(json({ count: 3, ranges: [['', '3']] }), RANGES, 3, segment));
  refused('format', () => parse(text('{"count":2,"ranges":[[9007199254740993,9007199254740994]]}'), RANGES, 2, segment));
  refused('format', () => parse(json({ count: 3, ranges: [['3', '1']] }), RANGES, 3, segment));
  refused('count', () => parse(json({ count: 3, ranges: [['1', '2']] }), RANGES, 3, segment));
  refused('count', () => parse(json({ count: 4, ranges: [['1', '3']] }), RANGES, 3, segment));
  refused('count', () => parse(json({ count: 3, ranges: [['1', String(2n ** 62n)]] }), RANGES, 3, segment));
  refused('increasing', () => parse(json({ count: 4, ranges: [['5', '6'], ['6', '7']] }), RANGES, 4, segment));
  // Safe JSON numbers are read exactly (the server writes strings).
  assert.deepEqual(parse(json({ count: 2, ranges: [[1, 2]] }), RANGES, 2, segment), [[1n, 2n, 1n]]);
});

test('lines: consecutive IDs become one run; anything but decimal IDs is refused', () => {
  assert.deepEqual(parse(text('5\n6\n7\n10\n'), 'text/plain', 4, segment), [[5n, 7n, 1n], [10n, 10n, 1n]]);
  assert.deepEqual(parse(text('5\n6'), 'text/plain', 2, segment), [[5n, 6n, 1n]]);
  assert.deepEqual(parse(text('18446744073709551\n'), '', 1, segment), [[18446744073709551n, 18446744073709551n, 1n]]);
  refused('count', () => parse(text('1\n2\n'), 'text/plain', 3, segment));
  refused('count', () => parse(text(''), 'text/plain', 1, segment));
  refused('format', () => parse(text('1\n\n'), 'text/plain', 2, segment));
  refused('format', () => parse(text('1\r\n2\r\n'), 'text/plain', 2, segment));
  refused('format', () => parse(text('-1\n'), 'text/plain', 1, segment));
  refused('format', () => parse(text('12345678901234567890\n'), 'text/plain', 1, segment));
  refused('format', () => parse(Buffer.from([0x31, 0xd9, 0xa1, 0x0a]), 'text/plain', 1, segment));
  // A shard answer's lines stay one run each: they have no order.
  assert.equal(parse(text('1\n2\n'), 'text/plain', 2, shard(1)).length, 2);
});

test('firstShared walks two lists of runs once', () => {
  assert.equal(firstShared([[1n, 10n, 1n]], [[11n, 20n, 1n]]), undefined);
  assert.equal(firstShared([[1n, 10n, 1n], [30n, 40n, 1n]], [[11n, 20n, 1n], [35n, 50n, 1n]]), 35n);
  assert.equal(firstShared([[1n, 101n, 10n]], [[2n, 200n, 3n]]), 11n);
  assert.equal(firstShared([[0n, 1000000n, 2n]], [[1n, 1000001n, 2n]]), undefined);
});

test('increasing kinds: positive, increasing, behind, repeated; an answer starting below the mark is served from above it', () => {
  const history = new History(segment);
  assert.deepEqual(history.accept([[0n, 9n, 1n]]), [[1n, 9n, 1n]], '0 is never served');
  assert.equal(history.mark, 9n);
  refused('behind', () => history.accept([[3n, 9n, 1n]]));
  refused('repeated', () => history.accept([[5n, 12n, 1n]]));
  refused('increasing', () => history.accept([[20n, 20n, 1n], [20n, 20n, 1n]]));
  refused('positive', () => history.accept([[-5n, 30n, 1n]]));
  assert.deepEqual(history.accept([[100n, 109n, 1n]]), [[100n, 109n, 1n]]);
  // A snowflake server whose IDs interleave: lower ones are skipped, none twice.
  assert.deepEqual(history.accept([[50n, 60n, 1n], [110n, 115n, 1n]]), [[110n, 115n, 1n]]);
  assert.equal(history.mark, 115n);
  const zeros = new History(segment);
  refused('positive', () => zeros.accept([[0n, 0n, 1n]]));
});

test('repeated: an answer is compared with the last four accepted', () => {
  const history = new History(segment);
  history.accept([[1n, 10n, 1n]]);
  // Answers that interleave (two requests in flight), each reaching above the mark.
  for (let i = 1; i <= RECENT_ANSWERS; i += 1) history.accept([[BigInt(i * 100), BigInt(i * 100 + 9)], [BigInt(i * 1000), BigInt(i * 1000)]].map(([a, b]) => [a, b, 1n]));
  // 1..10 has left the window of four: an answer reaching above the mark is no longer compared with it.
  assert.ok(history.accept([[5n, 5n, 1n], [5000n, 5001n, 1n]]));
  refused('repeated', () => history.accept([[4000n, 4000n, 1n], [6000n, 6001n, 1n]]));
});

test('shard: app byte, shard bits, repeats within the answer and within the last 16384 IDs', () => {
  const id = (index, shardNumber = 5n, app = 7n) => (BigInt(index) << 14n) | (shardNumber << 8n) | app;
  const history = new History(shard(7, 5));
  assert.deepEqual(history.accept([[id(1), id(3), SHARD_STRIDE]]), [[id(1), id(3), SHARD_STRIDE]]);
  refused('app', () => history.accept([[id(9, 5n, 8n), id(9, 5n, 8n), 1n]]));
  refused('shard', () => history.accept([[id(9, 6n), id(9, 6n), 1n]]));
  refused('repeated', () => history.accept([[id(9), id(9), 1n], [id(9), id(9), 1n]]));
  refused('repeated', () => history.accept([[id(2), id(2), 1n]]));
  refused('positive', () => new History(shard(0)).accept([[0n, 0n, 1n]]));
  // Any shard of the app without a gate pass.
  assert.ok(new History(shard(7)).accept([[id(1, 9n), id(1, 9n), 1n]]));
  // 16384 IDs later the first ones are forgotten: by value, a window, not all of history.
  for (let i = 100; i < 100 + 16384; i += 1) history.accept([[id(i), id(i), 1n]]);
  assert.ok(history.accept([[id(2), id(2), 1n]]));
});

test('formats: the pattern header, the count, strings of the pattern, none twice', () => {
  const history = new FormatHistory();
  const headers = { 'leaf-format': 'O{yyyy}{seq:6}' };
  assert.deepEqual(history.accept(headers, text('O2026000001\nO2026000002\n'), 2), ['O2026000001', 'O2026000002']);
  refused('pattern', () => history.accept({}, text('O2026000003\n'), 1));
  refused('pattern', () => history.accept({ 'leaf-format': 'X{seq:6}' }, text('O2026000003\n'), 1));
  refused('count', () => history.accept(headers, text('O2026000003\n'), 2));
  refused('repeated', () => history.accept(headers, text('O2026000002\n'), 1));
  refused('repeated', () => history.accept(headers, text('O2026000004\nO2026000004\n'), 2));
  refused('format', () => history.accept(headers, text('\n'), 1));
  refused('format', () => history.accept(headers, text('O20\u0007\n'), 1));
  refused('format', () => history.accept(headers, text(`${'O'.repeat(129)}\n`), 1));
  refused('format', () => history.accept(headers, text('Ö 2026\n'), 1));
  refused('format', () => history.accept(headers, text('O1969000005\n'), 1));
  refused('format', () => history.accept(headers, text('O2026 00005\n'), 1));
});

test('formats: the check character, Luhn mod 10 for decimal numbers and mod 36 otherwise', () => {
  // The docs' example (docs/formats.md): ...0019 is right, ...0018 is a mistyped check.
  const decimal = new FormatHistory();
  const order = { 'leaf-format': 'ORD{yyyy}{MM}{dd}{seq:6}{check}' };
  assert.deepEqual(decimal.accept(order, text('ORD202611280000019\n'), 1), ['ORD202611280000019']);
  refused('format', () => decimal.accept(order, text('ORD202611280000018\n'), 1));
  // Base 36: the check is one of 0-9A-Z over the letters and digits before it, in either case.
  const base36 = new FormatHistory();
  const box = { 'leaf-format': 'B-{seq36:4}{check}' };
  const { Pattern } = require('../lib/pattern');
  const pattern = new Pattern('B-{seq36:4}{check}');
  const right = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c) => `B-00Z9${c}`).filter((v) => !pattern.problem(v));
  assert.equal(right.length, 1, 'one check character fits');
  assert.deepEqual(base36.accept(box, text(`${right[0]}\n`), 1), right);
  refused('format', () => base36.accept(box, text(`B-00Z9${right[0].endsWith('0') ? '1' : '0'}\n`), 1));
});
