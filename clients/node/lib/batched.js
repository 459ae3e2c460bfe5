'use strict';
// What an ID buffer and a format's strings share: at most one fetch under way, and a call that
// takes n values from memory, waiting for fetches while memory lacks some. A subclass says how a
// batch is fetched (_fetchBatch) and how values are copied out of memory (_fill).

const ignore = () => {};

class Batched {
  constructor() {
    this._fetching = null; // the fetch under way, at most one
    this._wanted = 0; // values the calls waiting for a fetch still lack (sizes batches when prefetch is off)
  }

  /** n values, from memory, then from as many fetches as it takes. */
  async _take(n) {
    const out = new Array(n);
    let got = this._fill(out, 0);
    while (got < n) {
      const lack = n - got;
      this._wanted += lack;
      try {
        await this._fetch();
      } finally {
        this._wanted -= lack;
      }
      got = this._fill(out, got);
    }
    return out;
  }

  /** The fetch under way, or a new one. */
  _fetch() {
    if (this._fetching === null) {
      const fetching = this._fetchBatch().finally(() => {
        this._fetching = null;
      });
      // A prefetch nobody waits for may fail: the next call that finds memory empty asks again.
      fetching.catch(ignore);
      this._fetching = fetching;
    }
    return this._fetching;
  }
}

module.exports = { Batched };
