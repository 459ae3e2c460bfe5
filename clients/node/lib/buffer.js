'use strict';
// IDs of one segment tag, of snowflake, or of one shard-mode app and shard: fetched in batches,
// checked, served from memory, the next batch fetched in the background before this one runs out.
//
// Serving is arithmetic on the run being served (its next ID, stride and how many are left):
// no I/O, no lock (one event loop needs none) and no array per ID while a batch lasts. A batch is
// kept as the runs its answer stood for, never written out, so a range of a million IDs costs
// what one ID costs.
const { BatchSize } = require('./batch-size');
const { LeafError, LeafInvalidInputError, INVALID_COUNT } = require('./errors');
const { RANGES, BYTES_PER_ID, parse, runCount } = require('./answers');
const { History } = require('./checks');

const { Batched } = require('./batched');

class IdBuffer extends Batched {
  /** @internal Made by LeafClient.segment(), .snowflake() and .shard(). */
  constructor(client, path, kind, maxBatch) {
    super();
    this._client = client;
    this._path = path;
    this._kind = kind;
    // Ranges where the server offers them; lines from a server older than ranges, from an opaque
    // shard app, and for snowflake (which has no ranges).
    this._accept = kind.name === 'snowflake' ? 'text/plain' : `${RANGES}, text/plain;q=0.5`;
    this._history = new History(kind);
    this._strings = client._options.ids === 'string';
    this._size = new BatchSize(client._options.firstBatch, maxBatch, client._options);
    // The run being served: its next ID, its step and how many IDs it still holds.
    this._cur = 0n;
    this._stride = 1n;
    this._runLeft = 0;
    // The runs accepted after it, in order; _head is the next to serve.
    this._queue = [];
    this._head = 0;
    this._left = 0; // every ID held, the current run's included
    this._prefetchAt = this._size.threshold(); // a fetch starts when _left falls to this; -1: never
  }

  /**
   * The next ID. Resolves without I/O while the buffer holds one; otherwise waits for a fetch,
   * which gives up after maxWait with a LeafUnavailableError naming the servers' failures.
   */
  async next() {
    if (this._runLeft > 0 || this._advance()) {
      const value = this._cur;
      this._cur = value + this._stride;
      this._runLeft -= 1;
      if ((this._left -= 1) <= this._prefetchAt && this._fetching === null) this._fetch();
      return this._strings ? String(value) : value;
    }
    return (await this._take(1))[0];
  }

  /**
   * The next ID now, or undefined when none is in memory (a fetch is then started, so that a later
   * call finds some). Never waits, never throws a server's failure.
   */
  tryNext() {
    if (this._runLeft === 0 && !this._advance()) {
      if (this._fetching === null && !this._client._servers.closed) this._fetch();
      return undefined;
    }
    const value = this._cur;
    this._cur = value + this._stride;
    this._runLeft -= 1;
    if ((this._left -= 1) <= this._prefetchAt && this._fetching === null) this._fetch();
    return this._strings ? String(value) : value;
  }

  /**
   * The next n IDs, taken at once, in the buffer's order (increasing for a segment tag and
   * snowflake). On a failure the IDs taken so far are dropped, never served again.
   */
  nextMany(n) {
    if (typeof n !== 'number') throw new TypeError(`n is a number: ${typeof n}`);
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`n is a whole number, at least 1: ${n}`);
    if (n <= this._left) {
      const out = new Array(n);
      this._fill(out, 0);
      return Promise.resolve(out);
    }
    return this._take(n);
  }

  /** The IDs held in memory now. */
  get buffered() {
    return this._left;
  }

  /** The size of the next batch (before the rate of use changes it). */
  get batchSize() {
    return this._size.size;
  }

  /** Writes IDs from memory into out from index i; the index reached. */
  _fill(out, i) {
    const n = out.length;
    while (i < n && (this._runLeft > 0 || this._advance())) {
      const take = Math.min(n - i, this._runLeft);
      const stride = this._stride;
      let value = this._cur;
      const end = i + take;
      if (this._strings) {
        for (; i < end; i += 1, value += stride) out[i] = String(value);
      } else {
        for (; i < end; i += 1, value += stride) out[i] = value;
      }
      this._cur = value;
      this._runLeft -= take;
      this._left -= take;
    }
    if (this._left <= this._prefetchAt && this._fetching === null) this._fetch();
    return i;
  }

  /** Makes the next queued run the current one; false when none is queued. */
  _advance() {
    if (this._head >= this._queue.length) return false;
    const run = this._queue[this._head];
    this._queue[this._head] = undefined;
    this._head += 1;
    if (this._head === this._queue.length) {
      this._queue.length = 0;
      this._head = 0;
    }
    [this._cur, , this._stride] = run;
    this._runLeft = runCount(run);
    return true;
  }

  /** The fetch under way, or a new one; its failure reaches only those who await it. */

  async _fetchBatch() {
    for (;;) {
      const size = this._size.next(this._wanted);
      this._prefetchAt = this._size.threshold();
      const separator = this._path.includes('?') ? '&' : '?';
      let runs;
      try {
        runs = await this._client._servers.get(`${this._path}${separator}count=${size}`, this._accept,
          BYTES_PER_ID * size + 1024,
          (status, headers, body) => this._history.accept(parse(body, headers['content-type'] ?? '', size, this._kind)));
      } catch (failure) {
        if (failure instanceof LeafInvalidInputError && failure.type === INVALID_COUNT && size > 1) {
          // A batch larger than the servers take (leaf.max-batch, or a server older than ranges):
          // halve the largest batch and ask again.
          this._size.refused(size);
          this._prefetchAt = this._size.threshold();
          continue;
        }
        throw failure;
      }
      if (this._client._servers.closed) throw new LeafError('the client is closed');
      for (const run of runs) {
        this._queue.push(run);
        this._left += runCount(run);
      }
      return;
    }
  }

  /** Drops what is held: IDs buffered when the client is closed are lost, never reused. */
  _drop() {
    this._runLeft = 0;
    this._queue = [];
    this._head = 0;
    this._left = 0;
    this._prefetchAt = -1;
  }
}

module.exports = { IdBuffer };
