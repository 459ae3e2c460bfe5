'use strict';
// The errors of the Leaf client: a request the servers refuse, or no server that answers well.

/** Anything the client raises about the servers (bad arguments are TypeError or RangeError). */
class LeafError extends Error {
  constructor(message, { status, type, detail } = {}) {
    super(message);
    this.name = new.target.name;
    // Every Leaf error carries these three, so that a caller can log them without knowing the
    // subclass; an unavailability has no status or type of its own.
    this.status = status;
    this.type = type;
    this.detail = detail;
  }
}

/** No server gave a good answer within maxWait: every one was down, slow or answered badly. */
class LeafUnavailableError extends LeafError {
  constructor(message, reasons = []) {
    super(message, { detail: reasons.join('; ') });
    /** "server: why" of the last round of servers asked. */
    this.reasons = reasons;
  }
}

/** A 4xx (or a limit reached): the request's fault, the same on every server, so not retried. */
class LeafRequestError extends LeafError {
  constructor(status, type, detail) {
    super(`${status} ${type}: ${detail}`, { status, type, detail });
  }
}

/** 404: unknown tag, app, shard or format, or the mode is off on the server. */
class LeafUnknownKeyError extends LeafRequestError {}

/** 400: the tag, key, count or gate pass is not one the server takes. */
class LeafInvalidInputError extends LeafRequestError {}

/** tag-exhausted or app-limit-reached (503s): every server would say the same. */
class LeafLimitReachedError extends LeafRequestError {}

const PROBLEM = 'urn:leaf:problem:';
const LIMIT_TYPES = new Set([`${PROBLEM}tag-exhausted`, `${PROBLEM}app-limit-reached`]);
const INVALID_COUNT = `${PROBLEM}invalid-count`;

/** The typed error of a refusal: the limit types first (they come as 503), then by status. */
function requestError(status, type, detail) {
  if (LIMIT_TYPES.has(type)) return new LeafLimitReachedError(status, type, detail);
  if (status === 404) return new LeafUnknownKeyError(status, type, detail);
  if (status === 400) return new LeafInvalidInputError(status, type, detail);
  return new LeafRequestError(status, type, detail);
}

/**
 * An answer that fails a check: the server's failure, never an ID. Internal: it never reaches a
 * caller, who sees the next server's answer or a LeafUnavailableError naming it.
 */
class BadAnswer extends Error {
  constructor(check, detail) {
    super(`check ${check}: ${detail}`);
    this.name = 'BadAnswer';
    this.check = check;
  }
}

module.exports = {
  LeafError,
  LeafUnavailableError,
  LeafRequestError,
  LeafUnknownKeyError,
  LeafInvalidInputError,
  LeafLimitReachedError,
  BadAnswer,
  requestError,
  LIMIT_TYPES,
  INVALID_COUNT,
};
