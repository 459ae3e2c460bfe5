// Types of leafid, the Node.js client of Leaf. IDs are 64-bit: they are `bigint` by default (never
// a JavaScript number, which holds only 53 bits exactly), or decimal strings with `ids: 'string'`.

export interface LeafClientOptions<Ids extends 'bigint' | 'string' = 'bigint' | 'string'> {
  /** Milliseconds to open a connection. Default 1000. */
  connectTimeout?: number;
  /** Milliseconds for the whole answer, body included, before the next server is asked. Default 2000. */
  requestTimeout?: number;
  /** Milliseconds a call waits once its buffer is spent, before LeafUnavailableError. Default 5000. */
  maxWait?: number;
  /** The largest batch written out ID by ID (snowflake, shard, formats); at most the servers' leaf.max-batch. Default 1000. */
  maxBatch?: number;
  /** The largest segment batch, which comes as ranges; at most the servers' leaf.segment.max-range-batch. Default 1,000,000. */
  maxRangeBatch?: number;
  /** The part of a batch left at which the next one is fetched in the background; 0 for no prefetch. Default 0.1. */
  prefetchThreshold?: number;
  /** Milliseconds: batch sizes follow the rate of use towards one fetch per interval. Default 100. */
  targetFetchInterval?: number;
  /** Each buffer's first batch. Default 16. */
  firstBatch?: number;
  /** 'bigint' (the default) or 'string' (decimal strings). */
  ids?: Ids;
  /** Called with one line per failover; null for none. Default: a line on stderr. */
  log?: ((line: string) => void) | null;
}

/** The IDs of one segment tag, of snowflake, or of one shard-mode app and shard. */
export interface IdBuffer<Id extends bigint | string = bigint> {
  /** The next ID; resolves without I/O while the buffer holds one. */
  next(): Promise<Id>;
  /** The next ID now, or undefined when none is in memory (a fetch is then started). Never throws a server's failure. */
  tryNext(): Id | undefined;
  /** The next n IDs, taken at once, in the buffer's order. Throws TypeError/RangeError at once for a bad n. */
  nextMany(n: number): Promise<Id[]>;
  /** The IDs held in memory now. */
  readonly buffered: number;
  /** The size of the next batch, before the rate of use changes it. */
  readonly batchSize: number;
}

/** The strings of one format (leaf.formats.<name>). */
export interface FormatStrings {
  nextString(): Promise<string>;
  /** Throws TypeError/RangeError at once for a bad n. */
  nextStrings(n: number): Promise<string[]>;
  readonly buffered: number;
}

/** { server URL: { check or reason: count } } */
export type Counts = Record<string, Record<string, number>>;

/** A client of Leaf servers; make it with `new LeafClient(servers, options)`. */
export interface LeafClient<Id extends bigint | string = bigint> {
  /** The IDs of a segment tag (1-128 characters of A-Z a-z 0-9 . _ : -). */
  segment(tag: string): IdBuffer<Id>;
  /** Snowflake IDs; the key is checked by the server, not used. Default key 'leaf'. */
  snowflake(key?: string): IdBuffer<Id>;
  /** The IDs of a shard-mode app (0..255): of the gate pass's shard, or any shard without one. */
  shard(appId: number, gatePass?: string): IdBuffer<Id>;
  /** The strings of a format. */
  format(name: string): FormatStrings;
  /** The next string of a format. */
  nextString(name: string): Promise<string>;
  /** The answers refused, by server and check (format, count, size, deadline, positive, increasing, behind, repeated, app, shard, pattern). */
  badAnswers(): Counts;
  /** The failures, by server and reason (connection, timeout, status, redirect, bad-answer). */
  serverFailures(): Counts;
  /** Releases the kept-alive connections; the IDs buffered are dropped, never served. */
  close(): void;
}

export interface LeafClientConstructor {
  /**
   * @param servers URLs (http://host:port), asked in order, the first preferred while it answers
   *   well: an array, or one string of URLs separated by commas.
   * @throws TypeError or RangeError for a bad URL or option.
   */
  new (servers: string | readonly string[], options: LeafClientOptions<'string'> & { ids: 'string' }): LeafClient<string>;
  new (servers: string | readonly string[], options?: LeafClientOptions<'bigint'>): LeafClient<bigint>;
  readonly prototype: LeafClient<bigint | string>;
}

export const LeafClient: LeafClientConstructor;

export const DEFAULTS: Readonly<Required<LeafClientOptions>>;

/** Anything the client raises about the servers (bad arguments are TypeError or RangeError). */
export class LeafError extends Error {
  /** The HTTP status, for a refusal. */
  readonly status: number | undefined;
  /** The problem type, e.g. urn:leaf:problem:unknown-tag ('' when the body was not problem+json). */
  readonly type: string | undefined;
  /** The server's words, or the reasons of an unavailability. */
  readonly detail: string | undefined;
}

/** A 4xx (or a limit reached): the request's fault, the same on every server, so not retried. */
export class LeafRequestError extends LeafError {
  readonly status: number;
  readonly type: string;
  readonly detail: string;
  constructor(status: number, type: string, detail: string);
}
/** 404: unknown tag, app, shard or format, or the mode is off on the server. */
export class LeafUnknownKeyError extends LeafRequestError {}
/** 400: the tag, key, count or gate pass is not one the server takes. */
export class LeafInvalidInputError extends LeafRequestError {}
/** tag-exhausted or app-limit-reached: every server would say the same. */
export class LeafLimitReachedError extends LeafRequestError {}
/** No server gave a good answer within maxWait. */
export class LeafUnavailableError extends LeafError {
  /** "server: why" of the last round of servers asked. */
  readonly reasons: string[];
  constructor(message: string, reasons?: string[]);
}

/** Java's String.hashCode over UTF-16 code units, as a signed 32-bit int. */
export function javaStringHashCode(text: string): number;
/** The shard of a gate pass: Math.abs(hashCode) % 64, Integer.MIN_VALUE giving 0. */
export function shardOf(gatePass: string): number;

export const version: string;
