#!/usr/bin/env node
'use strict';
// leafid: IDs from Leaf servers, one a line.
//
//   leafid --servers URL[,URL...] (--segment TAG | --snowflake KEY | --shard APP [--gate-pass P]
//          | --format NAME) [--count N]
//
// Exit 1 with the problem on stderr, a command line that is not one of these forms included.
const { parseArgs } = require('node:util');
const { LeafClient, LeafError } = require('../lib');

const USAGE = 'usage: leafid --servers URL[,URL...] (--segment TAG | --snowflake KEY | --shard APP [--gate-pass P]'
  + ' | --format NAME) [--count N]';
const MODES = ['segment', 'snowflake', 'shard', 'format'];

class UsageError extends Error {}

function commandLine(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        servers: { type: 'string' },
        segment: { type: 'string' },
        snowflake: { type: 'string' },
        shard: { type: 'string' },
        'gate-pass': { type: 'string' },
        format: { type: 'string' },
        count: { type: 'string', default: '1' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (bad) {
    throw new UsageError(bad.message);
  }
  if (values.help) return values;
  if (values.servers === undefined) throw new UsageError('--servers is required');
  const modes = MODES.filter((mode) => values[mode] !== undefined);
  if (modes.length !== 1) throw new UsageError('one of --segment, --snowflake, --shard, --format is required');
  if (!/^\d+$/.test(values.count) || Number(values.count) < 1 || !Number.isSafeInteger(Number(values.count))) {
    throw new UsageError(`--count is a whole number, at least 1: ${values.count}`);
  }
  if (values.shard !== undefined && !/^[+-]?\d+$/.test(values.shard)) {
    throw new UsageError(`--shard is an app id (a whole number): ${values.shard}`);
  }
  if (values['gate-pass'] !== undefined && values.shard === undefined) throw new UsageError('--gate-pass goes with --shard');
  return values;
}

async function main(argv) {
  let values;
  try {
    values = commandLine(argv);
  } catch (bad) {
    process.stderr.write(`${USAGE}\nleafid: ${bad.message}\n`);
    return 1;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\nIDs from Leaf servers, one a line; the servers are asked in order.\n`);
    return 0;
  }
  const count = Number(values.count);
  let client;
  let out;
  try {
    // One batch of exactly --count (up to 1000 a batch): a command takes no ID it does not print.
    client = new LeafClient(values.servers, { firstBatch: Math.min(count, 1000), prefetchThreshold: 0, log: null });
    if (values.segment !== undefined) out = await client.segment(values.segment).nextMany(count);
    else if (values.snowflake !== undefined) out = await client.snowflake(values.snowflake).nextMany(count);
    else if (values.shard !== undefined) out = await client.shard(Number(values.shard), values['gate-pass']).nextMany(count);
    else out = await client.format(values.format).nextStrings(count);
  } catch (problem) {
    if (!(problem instanceof LeafError || problem instanceof TypeError || problem instanceof RangeError)) throw problem;
    process.stderr.write(`leafid: ${problem.message}\n`);
    return 1;
  } finally {
    client?.close();
  }
  process.stdout.write(out.length === 0 ? '' : `${out.join('\n')}\n`);
  return 0;
}

main(process.argv.slice(2)).then((code) => {
  // Not process.exit(): stdout, a pipe, may still be writing.
  process.exitCode = code;
}, (failure) => {
  process.stderr.write(`leafid: ${failure?.stack ?? failure}\n`);
  process.exitCode = 1;
});
