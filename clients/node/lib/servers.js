'use strict';
// The servers of one client: asked in the order given, each answer read within a deadline and a
// size limit and checked before it is used; a server that fails is skipped for a back-off, and the
// next one asked.
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { BadAnswer, LeafError, LeafUnavailableError, LIMIT_TYPES, requestError } = require('./errors');

// A failover's back-off: 250 ms, doubling per failure in a row, up to 5 s; Retry-After up to 60 s.
const FIRST_BACK_OFF = 250;
const LONGEST_BACK_OFF = 5000;
const LONGEST_RETRY_AFTER = 60000;
// The statuses that say "try another server"; any other 4xx is the request's fault.
const RETRIED = new Set([408, 429]);
// A kept-alive socket idle this long is closed by the agent: below the 5 s a Node server keeps
// one, so that the client seldom sends on a socket the server is closing.
const IDLE_SOCKET = 4000;

const now = () => performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class Server {
  constructor(url) {
    if (typeof url !== 'string') throw new TypeError(`a server is a URL string: ${String(url)}`);
    let parsed;
    try {
      parsed = new URL(url.trim());
    } catch {
      throw new TypeError(`a server is an http:// URL with a host: ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== 'http:' || !parsed.hostname || parsed.search || parsed.hash
        || parsed.username || parsed.password) {
      throw new TypeError(`a server is an http:// URL with a host (no query, no user): ${JSON.stringify(url)}`);
    }
    this.url = url.trim().replace(/\/+$/, '');
    // URL keeps the brackets of an IPv6 host; http.request wants the address alone.
    this.host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = parsed.port ? Number(parsed.port) : 80;
    this.base = parsed.pathname.replace(/\/+$/, '');
    this.downUntil = 0;
    this.failuresInARow = 0;
    // One agent a server, so that the sockets of a server that failed can be dropped alone.
    this.agent = new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET, scheduling: 'lifo' });
  }

  /** Closes the idle sockets: after a failure they are likely dead, and one of them would fail the next request too. */
  dropIdleSockets() {
    for (const sockets of Object.values(this.agent.freeSockets)) {
      for (const socket of [...sockets]) socket.destroy();
    }
  }
}

/** Sends one GET to the first server up, in order, until one gives an answer that passes a check. */
class Servers {
  constructor(urls, { connectTimeout, requestTimeout, maxWait, log }) {
    if (urls.length === 0) throw new RangeError('at least one server');
    this.servers = urls.map((url) => new Server(url));
    this.connectTimeout = connectTimeout;
    this.requestTimeout = requestTimeout;
    this.maxWait = maxWait;
    this.log = log;
    this.closed = false;
    /** server url -> check -> answers refused */
    this.badAnswers = new Map();
    /** server url -> reason -> failures */
    this.failures = new Map();
  }

  /**
   * The value `check(status, headers, body)` returns for the first good answer. The check runs
   * synchronously as the answer comes, so that judging an answer and recording it are one step for
   * the callers of one event loop.
   *
   * Rejects with the typed LeafRequestError of a 4xx (and of the 503s every server would give
   * alike), or LeafUnavailableError when no server gave a good answer within maxWait.
   */
  async get(path, accept, sizeLimit, check) {
    const deadline = now() + this.maxWait;
    const reasons = [];
    for (;;) {
      for (const server of this.servers) {
        if (this.closed) throw new LeafError('the client is closed');
        if (server.downUntil > now()) continue;
        let answer;
        try {
          answer = await this.send(server, path, accept, sizeLimit);
        } catch (failure) {
          if (this.closed) throw new LeafError('the client is closed');
          if (failure instanceof BadAnswer) {
            this.failed(server, `a bad answer, ${failure.message}`, 'bad-answer', undefined, failure.check);
          } else {
            const timeout = failure.code === 'ETIMEDOUT';
            this.failed(server, `${failure.code || failure.name}: ${failure.message}`, timeout ? 'timeout' : 'connection');
          }
          reasons.push(`${server.url}: ${failure.message}`);
          continue;
        }
        const { status, headers, body } = answer;
        if (status >= 200 && status < 300) {
          let value;
          try {
            value = check(status, headers, body);
          } catch (bad) {
            if (!(bad instanceof BadAnswer)) throw bad;
            this.failed(server, `a bad answer, ${bad.message}`, 'bad-answer', undefined, bad.check);
            reasons.push(`${server.url}: ${bad.message}`);
            continue;
          }
          server.failuresInARow = 0;
          return value;
        }
        const [type, detail] = problem(body);
        if ((status >= 400 && status < 500 && !RETRIED.has(status)) || LIMIT_TYPES.has(type)) {
          throw requestError(status, type, detail);
        }
        let why = `HTTP ${status}${type ? ` ${type}` : ''}`;
        const redirect = status >= 300 && status < 400;
        if (redirect) why += ` (a redirect to ${JSON.stringify(headers.location ?? null)} is never followed)`;
        this.failed(server, why, redirect ? 'redirect' : 'status', retryAfter(headers));
        reasons.push(`${server.url}: ${why}`);
      }
      const t = now();
      if (t >= deadline) {
        const last = reasons.slice(-this.servers.length);
        throw new LeafUnavailableError(`no Leaf server answered well within maxWait: ${last.join('; ')}`, last);
      }
      const soonest = Math.min(...this.servers.map((server) => server.downUntil));
      await sleep(Math.min(Math.max(soonest - t, 5), deadline - t));
    }
  }

  failed(server, why, reason, retryAfterMs, check) {
    if (check) count(this.badAnswers, server.url, check);
    count(this.failures, server.url, reason);
    server.failuresInARow += 1;
    const backOff = retryAfterMs ?? Math.min(FIRST_BACK_OFF * 2 ** (server.failuresInARow - 1), LONGEST_BACK_OFF);
    server.downUntil = now() + backOff;
    server.dropIdleSockets();
    this.log?.(`Leaf server ${server.url} failed (${why}); not asked for ${Math.round(backOff)} ms, the next server is asked`);
  }

  /** One request; a kept-alive socket the server had closed meanwhile is retried once on a new one. */
  async send(server, path, accept, sizeLimit) {
    try {
      return await this.sendOnce(server, path, accept, sizeLimit);
    } catch (failure) {
      if (!failure.reusedSocket || !(failure.code === 'ECONNRESET' || failure.code === 'EPIPE')) throw failure;
      return this.sendOnce(server, path, accept, sizeLimit);
    }
  }

  /** One request, the whole answer read within requestTimeout and sizeLimit bytes. */
  sendOnce(server, path, accept, sizeLimit) {
    return new Promise((resolve, reject) => {
      let settled = false;
      let connectTimer;
      const request = http.request({
        host: server.host,
        port: server.port,
        path: server.base + path,
        method: 'GET',
        headers: { Accept: accept },
        agent: server.agent,
      });
      const settle = (failure, value) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadlineTimer);
        clearTimeout(connectTimer);
        if (failure) {
          // Only a failure before any byte of the answer may be retried on a new socket.
          failure.reusedSocket = request.reusedSocket && !request.res;
          request.destroy();
          reject(failure);
        } else {
          resolve(value);
        }
      };
      // The whole answer, body included, within the deadline: a dripping or endless body is cut off.
      const deadlineTimer = setTimeout(() => settle(new BadAnswer('deadline',
        `no whole answer within ${this.requestTimeout} ms`)), this.requestTimeout);
      request.on('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => settle(Object.assign(
          new Error(`no connection within ${this.connectTimeout} ms`), { code: 'ETIMEDOUT' })), this.connectTimeout);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      request.on('error', (failure) => settle(failure));
      request.on('response', (response) => {
        const declared = Number(response.headers['content-length']);
        if (declared > sizeLimit) {
          settle(new BadAnswer('size', `the body is declared ${declared} bytes, more than ${sizeLimit}`));
          return;
        }
        const chunks = [];
        let size = 0;
        response.on('data', (chunk) => {
          size += chunk.length;
          // Cut off beyond the limit: an endless body costs the limit, not the heap.
          if (size > sizeLimit) settle(new BadAnswer('size', `the body passed ${sizeLimit} bytes`));
          else chunks.push(chunk);
        });
        response.on('end', () => settle(null, {
          status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks, size),
        }));
        response.on('error', (failure) => settle(failure));
        response.on('close', () => {
          if (!response.complete) settle(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
        });
      });
      request.end();
    });
  }

  close() {
    this.closed = true;
    for (const server of this.servers) server.agent.destroy();
  }
}

function count(map, server, key) {
  let counts = map.get(server);
  if (!counts) map.set(server, (counts = new Map()));
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** [type, detail] of a problem+json answer, or ['', the body's start]. */
function problem(body) {
  const text = body.toString('utf8');
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object') return [String(parsed.type ?? ''), String(parsed.detail ?? '')];
  } catch {
    // not JSON: the body's start says what it is
  }
  return ['', text.slice(0, 200)];
}

/** Retry-After in ms when it is whole seconds (capped at 60 s); an HTTP date is not honoured. */
function retryAfter(headers) {
  const value = headers['retry-after'];
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Math.min(Number(value) * 1000, LONGEST_RETRY_AFTER);
}

module.exports = { Servers, Server, FIRST_BACK_OFF, LONGEST_BACK_OFF, LONGEST_RETRY_AFTER };
