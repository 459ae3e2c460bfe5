'use strict';
// leafid: a client of Leaf, the ID service. Batches, failover and answer checks; no dependencies.
// Every export is a plain name, so that ESM code can import them by name from this CommonJS module.
const { LeafClient, DEFAULTS } = require('./client');
const { IdBuffer } = require('./buffer');
const { FormatStrings } = require('./format');
const { javaStringHashCode, shardOf } = require('./answers');
const {
  LeafError, LeafRequestError, LeafUnknownKeyError, LeafInvalidInputError, LeafLimitReachedError, LeafUnavailableError,
} = require('./errors');

const version = '1.0.0';

module.exports = {
  LeafClient,
  DEFAULTS,
  IdBuffer,
  FormatStrings,
  LeafError,
  LeafRequestError,
  LeafUnknownKeyError,
  LeafInvalidInputError,
  LeafLimitReachedError,
  LeafUnavailableError,
  javaStringHashCode,
  shardOf,
  version,
};
