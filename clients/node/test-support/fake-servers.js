'use strict';
// Servers that answer badly in one way each, and good ones, on 127.0.0.1 free ports, in the test's
// own process: what the client must refuse (never an ID of theirs handed out) and what it must
// serve from. Kept outside test/ so that `node --test test/` does not take it for a test file.
const http = require('node:http');

const RANGES = 'application/vnd.leaf.ranges+json';
const SHARD_STRIDE = 1n << 14n;

function lines(ids, headers = {}) {
  return { status: 200, headers: { 'Content-Type': 'text/plain', ...headers }, body: ids.map((id) => `${id}\n`).join('') };
}

function ranges(count, pairs, extra = {}) {
  return {
    status: 200,
    headers: { 'Content-Type': RANGES },
    body: JSON.stringify({ count, ...extra, ranges: pairs.map(([first, last]) => [String(first), String(last)]) }),
  };
}

function problem(status, type, detail, headers = {}) {
  return {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
    body: JSON.stringify({ type: `urn:leaf:problem:${type}`, title: 'x', status, detail }),
  };
}

/** Counts up from `start`, as one segment tag would (every ID once); ranges when asked for and at least 4. */
class Good {
  constructor(start = 1n) {
    this.next = BigInt(start);
    this.asked = []; // the counts asked for, in order
  }

  take(count) {
    const first = this.next;
    this.next += BigInt(count);
    return first;
  }

  takeList(count) {
    const first = this.take(count);
    return Array.from({ length: count }, (_, i) => first + BigInt(i));
  }

  answer(count, accept) {
    this.asked.push(count);
    if (accept.includes(RANGES) && count >= 4) {
      const first = this.take(count);
      return ranges(count, [[first, first + BigInt(count) - 1n]]);
    }
    return lines(this.takeList(count));
  }
}

/** A good server that answers lines and remembers what it gave, so that a replaying one can give it again. */
class Recording extends Good {
  constructor(start = 1n) {
    super(start);
    this.given = [];
  }

  answer(count) {
    const ids = this.takeList(count);
    this.given.push(...ids);
    return lines(ids);
  }

  /** The last `count` IDs given (padded with 1s when fewer were given). */
  replay(count) {
    if (this.given.length >= count) return this.given.slice(-count);
    return [...this.given, ...Array(count - this.given.length).fill(1n)];
  }
}

/** A good shard-mode server of one app and shard: IDs index << 14 | shard << 8 | app. */
class GoodShard {
  constructor(app, shard, index = 1n) {
    this.app = BigInt(app);
    this.shard = BigInt(shard);
    this.index = BigInt(index);
  }

  id(index) {
    return (index << 14n) | (this.shard << 8n) | this.app;
  }

  takeList(count) {
    const out = [];
    for (let i = 0; i < count; i += 1) out.push(this.id(this.index++));
    return out;
  }

  answer(count, accept) {
    const ids = this.takeList(count);
    if (accept.includes(RANGES) && count >= 4) return ranges(count, [[ids[0], ids[count - 1]]], { stride: String(SHARD_STRIDE) });
    return lines(ids);
  }

  /** Whether the client could have taken `id` from this server. */
  gave(id) {
    return (id & 0xffn) === this.app && ((id >> 8n) & 0x3fn) === this.shard && (id >> 14n) >= 1n && (id >> 14n) < this.index;
  }
}

/** The bad answers of a segment or snowflake server, to `count` IDs asked for; `source` counts up far from the good server. */
const BAD = {
  garbage: (source, count) => lines(Array.from({ length: count }, (_, i) => `x${i}`)),
  zeros: (source, count) => lines(Array(count).fill(0)),
  repeated: (source, count) => lines(Array(count).fill(7)),
  decreasing: (source, count) => lines(Array.from({ length: count }, (_, i) => 10n ** 12n + BigInt(count - i))),
  short: (source, count) => lines(source.takeList(Math.max(count - 1, 1)).slice(0, Math.max(count - 1, 0))),
  redirect: () => ({ status: 302, headers: { Location: 'http://127.0.0.1:1/elsewhere' }, body: '' }),
  'overlong-ranges': (source, count) => ranges(count, [[1n, 2n ** 62n]]),
  'ranges-miscounted': (source, count) => {
    const first = source.take(count);
    return ranges(count + 1, [[first, first + BigInt(count) - 1n]]);
  },
  'not-json': () => ({ status: 200, headers: { 'Content-Type': RANGES }, body: '{"count": 3, "ranges": [' }),
  'unsafe-json-number': (source, count) => ({
    status: 200, headers: { 'Content-Type': RANGES }, body: `{"count":${count},"ranges":[[9007199254740993,${9007199254740992 + count}]]}`,
  }),
  // As ranges: a line "-1" is not a decimal ID (format); a range of "-5".."-1" is read, then refused as not positive.
  negative: (source, count) => ranges(count, [[-BigInt(count), -1n]]),
  'too-long-id': (source, count) => lines(Array.from({ length: count }, (_, i) => `${'9'.repeat(20)}${i}`)),
};

/** Bad shard servers for app 7 and the shard of the test's gate pass. */
function badShard(name, good) {
  const other = new GoodShard(good.app, good.shard, 1n << 30n);
  switch (name) {
    case 'wrong-app': return new GoodShard((good.app + 1n) & 0xffn, good.shard, 1n << 30n);
    case 'wrong-shard': return new GoodShard(good.app, (good.shard + 1n) & 0x3fn, 1n << 30n);
    case 'repeated-in-answer': return { answer: (count) => lines(Array(count).fill(other.id(1n << 31n))) };
    case 'alternating': {
      // Two answers of good shard IDs, given in turn (cut to the count asked): the third repeats the first.
      const answers = [other.takeList(1000), other.takeList(1000)];
      let turn = 0;
      return { answer: (count) => lines(answers[turn++ % 2].slice(0, count)) };
    }
    default: throw new Error(name);
  }
}

/**
 * An HTTP server on 127.0.0.1 answering GET .../get/...?count=N with `behaviour`: an object with
 * answer(count, accept, request) (a Good, a Recording, a GoodShard…), a name of BAD, or "drip",
 * "endless", "replay" (of a Recording given as source).
 */
class FakeServer {
  constructor(behaviour, source = new Good(10n ** 15n)) {
    this.behaviour = behaviour;
    this.source = source;
    this.requests = [];
    this.server = http.createServer((request, response) => this.handle(request, response));
  }

  static async start(behaviour, source) {
    const fake = new FakeServer(behaviour, source);
    await new Promise((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${fake.server.address().port}`;
    return fake;
  }

  handle(request, response) {
    const url = new URL(request.url, 'http://fake');
    const count = Number(url.searchParams.get('count') ?? '1');
    const accept = request.headers.accept ?? '';
    this.requests.push({ path: url.pathname, query: url.search, count, accept });
    const { behaviour } = this;
    if (behaviour === 'drip') {
      const body = Buffer.from(this.source.takeList(count).map((id) => `${id}\n`).join(''));
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
      let at = 0;
      const timer = setInterval(() => {
        if (at >= body.length || response.destroyed) {
          clearInterval(timer);
          response.end();
          return;
        }
        response.write(body.subarray(at, at + 1));
        at += 1;
      }, 50);
      response.on('close', () => clearInterval(timer));
      return;
    }
    if (behaviour === 'endless') {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.from('1\n'.repeat(8192));
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', pump);
      pump();
      return;
    }
    let answer;
    if (behaviour === 'replay') answer = lines(this.source.replay(count));
    else if (typeof behaviour === 'string') answer = BAD[behaviour](this.source, count);
    else if (typeof behaviour === 'function') answer = behaviour(count, accept, request);
    else answer = behaviour.answer(count, accept, request);
    // An answer may come later (a promise): a slow server.
    Promise.resolve(answer).then((ready) => {
      response.writeHead(ready.status, { ...ready.headers, 'Content-Length': Buffer.byteLength(ready.body) });
      response.end(ready.body);
    });
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

module.exports = { FakeServer, Good, Recording, GoodShard, BAD, badShard, lines, ranges, problem, RANGES };
