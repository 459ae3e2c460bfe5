'use strict';
// Reading an answer: ranges (application/vnd.leaf.ranges+json) or one decimal ID a line, into
// runs [first, last, stride] of bigints that stand for the IDs without writing them out.
const { BadAnswer } = require('./errors');

const RANGES = 'application/vnd.leaf.ranges+json';
// A decimal ID and its newline: no good answer is longer per ID asked for.
const BYTES_PER_ID = 20;
// Shard IDs are index << 14 | shard << 8 | app: one shard's consecutive IDs step by this.
const SHARD_STRIDE = 1n << 14n;
// An ID as a JSON string (the form the server writes) or a safe JSON integer; a negative one is
// read so that the positive check names it, as the Python client's int() does.
const ID_TEXT = /^-?\d{1,19}$/;
const LINE = /^\d{1,19}$/;

/** What a buffer's answers must look like. */
class Kind {
  constructor(name, { increasing, stride = 1n, app, shard } = {}) {
    this.name = name;
    this.increasing = increasing;
    this.stride = stride;
    this.app = app === undefined ? undefined : BigInt(app);
    this.shard = shard === undefined ? undefined : BigInt(shard);
  }
}

/** The IDs a run stands for, as a Number (a run is at most a batch long). */
function runCount([first, last, stride]) {
  return Number((last - first) / stride) + 1;
}

function idOf(value) {
  if (typeof value === 'string' && ID_TEXT.test(value)) return BigInt(value);
  // Only a safe integer: a larger JSON number was already rounded by JSON.parse.
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new BadAnswer('format', `${JSON.stringify(value)?.slice(0, 40)} is not an ID`);
}

/** The runs of a good answer of `asked` IDs; BadAnswer otherwise. */
function parse(body, contentType, asked, kind) {
  return contentType.startsWith(RANGES) ? parseRanges(body, asked, kind) : parseLines(body, asked, kind);
}

function parseRanges(body, asked, kind) {
  let pairs;
  let declared;
  try {
    const answer = JSON.parse(body.toString('utf8'));
    if (!Array.isArray(answer.ranges)) throw new Error('no list of ranges');
    pairs = answer.ranges.map((pair) => {
      if (!Array.isArray(pair) || pair.length !== 2) throw new Error(`${JSON.stringify(pair)} is not [first, last]`);
      return [idOf(pair[0]), idOf(pair[1])];
    });
    declared = idOf(answer.count);
  } catch (bad) {
    if (bad instanceof BadAnswer) throw bad;
    throw new BadAnswer('format', `not an answer as ranges: ${bad.message}`);
  }
  const { stride } = kind;
  const wanted = BigInt(asked);
  const runs = [];
  let total = 0n;
  let before;
  for (const [first, last] of pairs) {
    if (last < first || (stride > 1n && (last - first) % stride !== 0n)) {
      throw new BadAnswer('format', `the run ${first}..${last} is not whole steps of ${stride}`);
    }
    if (kind.increasing && before !== undefined && first <= before) {
      throw new BadAnswer('increasing', `the run ${first}..${last} starts at or below ${before}`);
    }
    // Counted, never expanded: a run as long as the ID space is refused here.
    total += (last - first) / stride + 1n;
    if (total > wanted) throw new BadAnswer('count', `runs of more than the ${asked} IDs asked for`);
    runs.push([first, last, stride]);
    before = last;
  }
  if (total !== wanted || declared !== wanted) {
    throw new BadAnswer('count', `${total} IDs (${declared} declared) for ${asked} asked`);
  }
  return runs;
}

function parseLines(body, asked, kind) {
  // latin1 maps each byte to one character: any byte not an ASCII digit fails the pattern.
  const lines = body.toString('latin1').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length !== asked) throw new BadAnswer('count', `${lines.length} lines for ${asked} IDs asked`);
  const runs = [];
  let run;
  for (const line of lines) {
    if (!LINE.test(line)) throw new BadAnswer('format', `${JSON.stringify(line.slice(0, 40))} is not a decimal ID`);
    const value = BigInt(line);
    // Consecutive IDs become one run, served arithmetically like a range.
    if (kind.increasing && run !== undefined && value === run[1] + 1n) {
      run[1] = value;
    } else {
      run = [value, value, 1n];
      runs.push(run);
    }
  }
  return runs;
}

/** Every ID the runs stand for, in order (only for the short answers that are checked ID by ID). */
function* idsOf(runs) {
  for (const [first, last, stride] of runs) {
    for (let value = first; value <= last; value += stride) yield value;
  }
}

/** An ID two increasing lists of runs both hold, or undefined: one walk through both. */
function firstShared(a, b) {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [aFirst, aLast, aStride] = a[i];
    const [bFirst, bLast, bStride] = b[j];
    const low = aFirst > bFirst ? aFirst : bFirst;
    const high = aLast < bLast ? aLast : bLast;
    if (low <= high) {
      if (aStride === 1n && bStride === 1n) return low;
      // Along a's steps from low: their remainders by b's stride repeat within bStride steps, so
      // no more are tried however long the overlap.
      let value = low + ((aStride - ((low - aFirst) % aStride)) % aStride);
      for (let tried = 0n; value <= high && tried < bStride; value += aStride, tried += 1n) {
        if ((value - bFirst) % bStride === 0n) return value;
      }
    }
    if (aLast < bLast) i += 1;
    else j += 1;
  }
  return undefined;
}

/** Java's String.hashCode, over UTF-16 code units, as a signed 32-bit int. */
function javaStringHashCode(text) {
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return hash;
}

/** The shard of a gate pass: Math.abs(gatePass.hashCode()) % 64, as the server computes it. */
function shardOf(gatePass) {
  const hash = javaStringHashCode(gatePass);
  // Math.abs(Integer.MIN_VALUE) is itself in Java, and MIN_VALUE % 64 is 0.
  return hash === -2147483648 ? 0 : Math.abs(hash) % 64;
}

module.exports = {
  RANGES, BYTES_PER_ID, SHARD_STRIDE, Kind, parse, runCount, idsOf, firstShared, javaStringHashCode, shardOf,
};
