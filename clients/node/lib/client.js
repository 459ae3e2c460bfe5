'use strict';
// LeafClient: IDs from Leaf servers, in batches, checked, with failover. One buffer per segment
// tag, per snowflake key, per shard-mode app and shard, and one per format.
const { Servers } = require('./servers');
const { IdBuffer } = require('./buffer');
const { FormatStrings } = require('./format');
const { Kind, SHARD_STRIDE, shardOf } = require('./answers');
const { LeafError } = require('./errors');

// Tags and keys are 1-128 characters of A-Z a-z 0-9 . _ : - (the server's rule, checked here first).
const KEY = /^[A-Za-z0-9._:-]{1,128}$/;

const DEFAULTS = Object.freeze({
  connectTimeout: 1000, // ms to open a connection
  requestTimeout: 2000, // ms for the whole answer, body included, before the next server is asked
  maxWait: 5000, // ms a call waits once the buffer is spent, before LeafUnavailableError
  maxBatch: 1000, // the largest batch written out ID by ID (at most the servers' leaf.max-batch)
  maxRangeBatch: 1000000, // the largest segment batch, which comes as ranges (leaf.segment.max-range-batch)
  prefetchThreshold: 0.1, // the part of a batch left at which the next one is fetched; 0: no prefetch
  targetFetchInterval: 100, // ms: batch sizes follow the rate of use towards one fetch per interval
  firstBatch: 16, // each buffer's first batch: enough IDs to check the order within an answer
  ids: 'bigint', // 'bigint', or 'string' for decimal strings
  log: (line) => process.stderr.write(`${line}\n`), // one line per failover; null for none
});

function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options is an object');
  for (const name of Object.keys(options)) {
    if (!(name in DEFAULTS)) throw new TypeError(`unknown option ${name}`);
  }
  const merged = { ...DEFAULTS, ...options };
  const positive = (name, whole) => {
    const value = merged[name];
    if (typeof value !== 'number') throw new TypeError(`${name} is a number: ${String(value)}`);
    if (!(value > 0) || !Number.isFinite(value) || (whole && !Number.isSafeInteger(value))) {
      throw new RangeError(`${name} is a positive ${whole ? 'whole ' : ''}number: ${value}`);
    }
  };
  for (const name of ['connectTimeout', 'requestTimeout', 'maxWait', 'targetFetchInterval']) positive(name, false);
  for (const name of ['maxBatch', 'maxRangeBatch', 'firstBatch']) positive(name, true);
  const part = merged.prefetchThreshold;
  if (typeof part !== 'number') throw new TypeError(`prefetchThreshold is a number: ${String(part)}`);
  if (!(part >= 0 && part <= 1)) throw new RangeError(`prefetchThreshold is 0..1: ${part}`);
  if (merged.ids !== 'bigint' && merged.ids !== 'string') throw new RangeError(`ids is 'bigint' or 'string': ${merged.ids}`);
  if (merged.log !== null && typeof merged.log !== 'function') throw new TypeError('log is a function or null');
  return merged;
}

function checkKey(what, value) {
  if (typeof value !== 'string') throw new TypeError(`a ${what} is a string: ${typeof value}`);
  if (!KEY.test(value)) {
    throw new RangeError(`a ${what} is 1-128 characters of A-Z a-z 0-9 . _ : -: ${JSON.stringify(value)}`);
  }
}

class LeafClient {
  /**
   * @param servers URLs, asked in order (the first preferred while it answers well): an array, or
   *   one string of URLs separated by commas.
   * @param options see DEFAULTS; times in milliseconds.
   */
  constructor(servers, options = {}) {
    let urls;
    if (typeof servers === 'string') urls = servers.split(',').map((url) => url.trim()).filter(Boolean);
    else if (Array.isArray(servers)) urls = servers;
    else throw new TypeError('servers is an array of URLs or a string of URLs separated by commas');
    this._options = checkOptions(options);
    this._servers = new Servers(urls, this._options);
    this._buffers = new Map();
    this._formats = new Map();
  }

  /** The IDs of a segment tag, as ranges where the server offers them. */
  segment(tag) {
    checkKey('tag', tag);
    return this._buffer(`segment ${tag}`, `/api/segment/get/${tag}`, new Kind('segment', { increasing: true }),
      this._options.maxRangeBatch);
  }

  /** Snowflake IDs (the key is checked by the server, not used, as in Leaf). */
  snowflake(key = 'leaf') {
    checkKey('key', key);
    return this._buffer(`snowflake ${key}`, `/api/snowflake/get/${key}`, new Kind('snowflake', { increasing: true }),
      this._options.maxBatch);
  }

  /** The IDs of a shard-mode app: of the gate pass's shard, or of any shard without one. */
  shard(appId, gatePass) {
    if (typeof appId !== 'number' || !Number.isInteger(appId)) throw new TypeError(`an app id is a whole number: ${String(appId)}`);
    if (appId < 0 || appId > 255) throw new RangeError(`an app id is 0..255: ${appId}`);
    if (gatePass === undefined || gatePass === null) {
      return this._buffer(`shard ${appId}`, `/api/shard/get/${appId}`,
        new Kind('shard', { increasing: false, stride: SHARD_STRIDE, app: appId }), this._options.maxBatch);
    }
    if (typeof gatePass !== 'string') throw new TypeError(`a gate pass is a string: ${typeof gatePass}`);
    if (gatePass === '') throw new RangeError('a gate pass is not empty');
    const shard = shardOf(gatePass);
    // One buffer per shard, not per gate pass: every gate pass of a shard takes the same IDs.
    return this._buffer(`shard ${appId} ${shard}`, `/api/shard/get/${appId}?gatePass=${encodeURIComponent(gatePass)}`,
      new Kind('shard', { increasing: false, stride: SHARD_STRIDE, app: appId, shard }), this._options.maxBatch);
  }

  /** The strings of a format (leaf.formats.<name>). */
  format(name) {
    checkKey('format', name);
    this._open();
    let strings = this._formats.get(name);
    if (!strings) this._formats.set(name, (strings = new FormatStrings(this, name)));
    return strings;
  }

  /** The next string of a format. */
  nextString(name) {
    return this.format(name).nextString();
  }

  /** { server: { check: count } } of the answers refused, a copy. */
  badAnswers() {
    return nested(this._servers.badAnswers);
  }

  /** { server: { reason: count } } of the failures (connection, timeout, status, redirect, bad-answer), a copy. */
  serverFailures() {
    return nested(this._servers.failures);
  }

  /** Releases the kept-alive connections; the IDs buffered are dropped, never served. */
  close() {
    this._servers.close();
    for (const buffer of this._buffers.values()) buffer._drop();
    for (const strings of this._formats.values()) strings._drop();
  }

  _open() {
    if (this._servers.closed) throw new LeafError('the client is closed');
  }

  _buffer(key, path, kind, maxBatch) {
    this._open();
    let buffer = this._buffers.get(key);
    if (!buffer) this._buffers.set(key, (buffer = new IdBuffer(this, path, kind, maxBatch)));
    return buffer;
  }
}

function nested(map) {
  const out = {};
  for (const [server, counts] of map) out[server] = Object.fromEntries(counts);
  return out;
}

module.exports = { LeafClient, DEFAULTS };
