'use strict';
// How many IDs (or strings) a buffer asks for next: batches follow the rate of use towards one
// fetch per target interval, doubling while fetches come faster and halving when they come four
// times slower.
const { performance } = require('node:perf_hooks');

class BatchSize {
  constructor(first, max, { targetFetchInterval, prefetchThreshold }) {
    this.max = max;
    this.size = Math.max(1, Math.min(first, max));
    this.target = targetFetchInterval;
    this.part = prefetchThreshold;
    this.lastFetch = undefined;
  }

  /** The size of the fetch starting now; `wanted` is what the calls waiting for it lack. */
  next(wanted) {
    const now = performance.now();
    if (this.lastFetch !== undefined) {
      const lasted = now - this.lastFetch;
      if (lasted < this.target && this.size < this.max) {
        this.size = Math.min(this.size * 2, this.max);
      } else if (lasted > 4 * this.target && this.size > 1) {
        this.size = Math.max(Math.floor(this.size / 2), 1);
      }
    }
    this.lastFetch = now;
    // Without prefetch nothing is taken ahead: a fetch asks for no more than the waiting calls
    // lack (the leafid command takes exactly what it prints).
    if (this.part <= 0 && wanted > 0 && wanted < this.size) return wanted;
    return this.size;
  }

  /**
   * How few IDs left start the next fetch, -1 when prefetch is off: the prefetch threshold's part
   * of a batch, and a whole batch at the largest size, so that two batches are fetched ahead when
   * one lasts less than a fetch takes.
   */
  threshold() {
    if (this.part <= 0) return -1;
    if (this.size >= this.max) return this.size;
    return Math.floor(this.size * this.part);
  }

  /** A batch of `refused` was too large for the servers (invalid-count): half of it is the most asked from now on. */
  refused(refused) {
    this.max = Math.max(1, Math.floor(refused / 2));
    this.size = Math.min(this.size, this.max);
  }
}

module.exports = { BatchSize };
