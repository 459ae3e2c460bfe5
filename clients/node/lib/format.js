'use strict';
// The strings of one format (leaf.formats.<name>), fetched in batches like IDs, checked, served
// from memory. A format's strings are written out by the server, one a line: no ranges.
const { BatchSize } = require('./batch-size');
const { FormatHistory } = require('./checks');
const { LeafError } = require('./errors');

// Bytes allowed per string asked for, as the Python client allows: a format's strings are far
// shorter, and the limit is there to stop an endless body, not to judge a string.
const BYTES_PER_STRING = 200;
const { Batched } = require('./batched');

class FormatStrings extends Batched {
  /** @internal Made by LeafClient.format(). */
  constructor(client, name) {
    super();
    this._client = client;
    this._path = `/api/format/get/${name}`;
    this._history = new FormatHistory();
    this._size = new BatchSize(client._options.firstBatch, client._options.maxBatch, client._options);
    this._queue = [];
    this._head = 0;
  }

  /** The next string of the format. */
  async nextString() {
    if (this._head < this._queue.length) return this._take1();
    return (await this._take(1))[0];
  }

  /** The next n strings, taken at once. */
  nextStrings(n) {
    if (typeof n !== 'number') throw new TypeError(`n is a number: ${typeof n}`);
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`n is a whole number, at least 1: ${n}`);
    if (n <= this._queue.length - this._head) {
      const out = new Array(n);
      this._fill(out, 0);
      return Promise.resolve(out);
    }
    return this._take(n);
  }

  /** The strings held in memory now. */
  get buffered() {
    return this._queue.length - this._head;
  }

  _take1() {
    const value = this._queue[this._head];
    this._head += 1;
    this._afterTaking();
    return value;
  }

  _fill(out, i) {
    const take = Math.min(out.length - i, this._queue.length - this._head);
    for (let k = 0; k < take; k += 1) out[i + k] = this._queue[this._head + k];
    this._head += take;
    this._afterTaking();
    return i + take;
  }

  /** Compacts the queue once it is spent, and starts the next fetch when few strings are left. */
  _afterTaking() {
    const left = this._queue.length - this._head;
    if (left === 0) {
      this._queue = [];
      this._head = 0;
    }
    if (left <= this._size.threshold() && this._fetching === null) this._fetch();
  }

  async _fetchBatch() {
    const size = this._size.next(this._wanted);
    const strings = await this._client._servers.get(`${this._path}?count=${size}`, 'text/plain',
      BYTES_PER_STRING * size + 1024, (status, headers, body) => this._history.accept(headers, body, size));
    if (this._client._servers.closed) throw new LeafError('the client is closed');
    if (this._head > 0) {
      this._queue = this._queue.slice(this._head);
      this._head = 0;
    }
    for (const value of strings) this._queue.push(value);
  }

  _drop() {
    this._queue = [];
    this._head = 0;
  }
}

module.exports = { FormatStrings };
