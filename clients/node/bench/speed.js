#!/usr/bin/env node
'use strict';
// The client's speed, printed as two lines:
//
//   end-to-end <ids/s>  callers taking IDs from a client of the real server given (a segment tag,
//                       its batches as ranges, default options): fetches and checks included
//   buffered <ids/s>    the same callers taking IDs from a buffer whose batch is already in memory:
//                       one range of 2^40 IDs that a fake server in this process answered before
//                       the clock started, so no fetch is made while it runs
//
//   node bench/speed.js --servers URL --segment TAG [--seconds S] [--callers C] [--call next|tryNext|nextMany]
//
// Each figure is the IDs taken over the wall-clock time of S seconds (default 5), after an untimed
// warm-up of a fifth of that (at most 1 s) on the same buffer, so that the code is compiled and the
// batches have grown to the rate of use. C async callers (default 4) share one buffer, each calling
// `await buffer.next()` (or tryNext(), falling back to next() when it is empty; or nextMany(1024)).
// The IDs are not kept.
const http = require('node:http');
const { parseArgs } = require('node:util');
const { LeafClient } = require('../lib');

const HUGE = 2 ** 40;

async function measure(servers, tag, seconds, callers, call, options = {}) {
  const client = new LeafClient(servers, { log: null, ...options });
  try {
    const buffer = client.segment(tag);
    await buffer.next(); // the first fetch, not timed
    const run = async (ms) => {
      const end = performance.now() + ms;
      let taken = 0;
      // The clock is read once per 1024 IDs: not a cost of its own in the figure.
      const caller = async () => {
        let mine = 0;
        while (performance.now() < end) {
          if (call === 'nextMany') {
            await buffer.nextMany(1024);
          } else if (call === 'tryNext') {
            for (let i = 0; i < 1024; i += 1) if (buffer.tryNext() === undefined) await buffer.next();
          } else {
            for (let i = 0; i < 1024; i += 1) await buffer.next();
          }
          mine += 1024;
        }
        taken += mine;
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: callers }, caller));
      return taken / ((performance.now() - started) / 1000);
    };
    await run(Math.min(1000, (seconds * 1000) / 5));
    return await run(seconds * 1000);
  } finally {
    client.close();
  }
}

/** A fake segment server answering any count as one range, as a real one asked for ranges does. */
function hugeRanges() {
  let next = 1n;
  return http.createServer((request, response) => {
    const count = BigInt(new URL(request.url, 'http://fake').searchParams.get('count') ?? '1');
    const first = next;
    next += count;
    response.writeHead(200, { 'Content-Type': 'application/vnd.leaf.ranges+json' });
    response.end(JSON.stringify({ count: String(count), ranges: [[String(first), String(first + count - 1n)]] }));
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      servers: { type: 'string' },
      segment: { type: 'string' },
      seconds: { type: 'string', default: '5' },
      callers: { type: 'string', default: '4' },
      call: { type: 'string', default: 'next' },
    },
  });
  const seconds = Number(values.seconds);
  const callers = Number(values.callers);
  if (!values.servers || !values.segment || !(seconds > 0) || !(Number.isInteger(callers) && callers > 0)
      || !['next', 'tryNext', 'nextMany'].includes(values.call)) {
    throw new Error('--servers and --segment are required; --seconds and --callers positive; --call next, tryNext or nextMany');
  }
  const endToEnd = await measure(values.servers, values.segment, seconds, callers, values.call);
  process.stdout.write(`end-to-end ${Math.round(endToEnd)}\n`);

  const fake = hugeRanges();
  await new Promise((resolve) => fake.listen(0, '127.0.0.1', resolve));
  try {
    // One batch of 2^40 IDs, fetched by the first next(); the threshold of the next fetch (a tenth
    // of a batch below the largest) is never reached while the measure runs.
    const buffered = await measure(`http://127.0.0.1:${fake.address().port}`, 'speed', seconds, callers, values.call,
      { firstBatch: HUGE, maxRangeBatch: 2 * HUGE });
    process.stdout.write(`buffered ${Math.round(buffered)}\n`);
  } finally {
    fake.close();
  }
}

main().catch((failure) => {
  process.stderr.write(`speed: ${failure.message}\n`);
  process.exitCode = 1;
});
