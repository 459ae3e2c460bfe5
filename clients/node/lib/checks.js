'use strict';
// The checks an answer faces against what the buffer accepted before: positive, increasing,
// behind, repeated (the last answers, and for shard buffers the last IDs by value), app and shard.
// Each History belongs to one buffer; accept() judges an answer and records it in one step.
const { BadAnswer } = require('./errors');
const { idsOf, firstShared } = require('./answers');
const { Pattern } = require('./pattern');

// Answers accepted before, each compared with a new one: two requests in flight at once are judged
// against each other too.
const RECENT_ANSWERS = 4;
// Shard IDs have no order across answers: the last IDs served are remembered by value.
const RECENT_SHARD_IDS = 16384;
// A format's last strings, remembered so that none is served twice.
const RECENT_STRINGS = 4096;

/** The last `size` values, with a Set to look them up: a ring, so that remembering costs no shift. */
class Window {
  constructor(size) {
    this.ring = new Array(size);
    this.at = 0;
    this.set = new Set();
  }

  has(value) {
    return this.set.has(value);
  }

  add(value) {
    const old = this.ring[this.at];
    if (old !== undefined) this.set.delete(old);
    this.ring[this.at] = value;
    this.at = (this.at + 1) % this.ring.length;
    this.set.add(value);
  }
}

class History {
  constructor(kind) {
    this.kind = kind;
    this.mark = 0n; // the largest ID of the answers accepted (increasing kinds)
    this.recent = []; // the runs of the last RECENT_ANSWERS answers accepted
    this.recentIds = kind.increasing ? undefined : new Window(RECENT_SHARD_IDS);
  }

  /** The runs of the answer this client may serve; BadAnswer for one it must not. */
  accept(runs) {
    return this.kind.increasing ? this.acceptIncreasing(runs) : this.acceptByValue(runs);
  }

  acceptIncreasing(runs) {
    let previous;
    for (const [first, last] of runs) {
      if (first < 0n) throw new BadAnswer('positive', `${first} is below 0`);
      if (previous !== undefined && first <= previous) throw new BadAnswer('increasing', `${first} after ${previous}`);
      previous = last;
    }
    const high = runs[runs.length - 1][1];
    if (high <= 0n) throw new BadAnswer('positive', 'every ID is 0 or below');
    const floor = this.mark;
    if (high <= floor) throw new BadAnswer('behind', `every ID is at or below ${floor}, already served`);
    for (const before of this.recent) {
      const met = firstShared(before, runs);
      if (met !== undefined) throw new BadAnswer('repeated', `ID ${met} was in an answer accepted before`);
    }
    this.recent.push(runs);
    if (this.recent.length > RECENT_ANSWERS) this.recent.shift();
    this.mark = high;
    // An answer that only starts below the mark (a server on an older block after a failover, or
    // a snowflake server whose IDs interleave with the last one's) is served from above it; 0,
    // which a tag starting at 0 issues first, never.
    const kept = [];
    for (const [first, last, stride] of runs) {
      if (last <= floor) continue;
      const start = first <= floor ? first + ((floor - first) / stride + 1n) * stride : first;
      kept.push([start, last, stride]);
    }
    return kept;
  }

  acceptByValue(runs) {
    const { app, shard } = this.kind;
    const seen = new Set();
    // A shard answer is at most a plain batch (max-batch IDs): checked ID by ID.
    for (const value of idsOf(runs)) {
      if (value <= 0n) throw new BadAnswer('positive', `${value} is 0 or below`);
      if (app !== undefined && (value & 0xffn) !== app) {
        throw new BadAnswer('app', `${value} is of app ${value & 0xffn}, not ${app}`);
      }
      if (shard !== undefined && ((value >> 8n) & 0x3fn) !== shard) {
        throw new BadAnswer('shard', `${value} is of shard ${(value >> 8n) & 0x3fn}, not ${shard}`);
      }
      if (seen.has(value) || this.recentIds.has(value)) throw new BadAnswer('repeated', `${value} was served before`);
      seen.add(value);
    }
    for (const value of seen) this.recentIds.add(value);
    return runs;
  }
}

/** The strings of one format: each answer carries its pattern in Leaf-Format, the same on every server, and none of its strings was served before. */
class FormatHistory {
  constructor() {
    this.pattern = undefined;
    this.recent = new Window(RECENT_STRINGS);
  }

  accept(headers, body, asked) {
    const pattern = headers['leaf-format'];
    if (!pattern) throw new BadAnswer('pattern', 'no Leaf-Format header');
    if (this.pattern !== undefined && pattern !== this.pattern.text) {
      throw new BadAnswer('pattern', `pattern ${JSON.stringify(pattern)}, not ${JSON.stringify(this.pattern.text)} as before`);
    }
    let parsed = this.pattern;
    if (parsed === undefined) {
      try {
        parsed = new Pattern(pattern);
      } catch (unreadable) {
        throw new BadAnswer('pattern', `Leaf-Format: ${unreadable.message}`);
      }
    }
    const lines = body.toString('utf8').split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    if (lines.length !== asked) throw new BadAnswer('count', `${lines.length} strings for ${asked} asked`);
    const seen = new Set();
    for (const line of lines) {
      const problem = parsed.problem(line);
      if (problem) {
        throw new BadAnswer('format', `${JSON.stringify(line.slice(0, 40))} ${problem}: not a string of ${JSON.stringify(pattern)}`);
      }
      if (seen.has(line) || this.recent.has(line)) throw new BadAnswer('repeated', `${JSON.stringify(line)} was served before`);
      seen.add(line);
    }
    this.pattern = parsed;
    for (const line of lines) this.recent.add(line);
    return lines;
  }
}

module.exports = { History, FormatHistory, Window, RECENT_ANSWERS, RECENT_SHARD_IDS, RECENT_STRINGS };
