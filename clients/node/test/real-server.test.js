'use strict';
// The client against the real server (the jar named by LEAF_SERVER_JAR): every mode, the errors,
// the leafid command, and 1,000,000 IDs through two servers on one MariaDB with the first killed
// halfway. Skipped unless LEAF_SERVER_JAR names an existing jar (the MariaDB test also needs the
// mysql client and a MariaDB on 127.0.0.1:3306, root without password).
//
// These start Java servers: on a shared machine run them as `flock /tmp/leaf-heavy.lock node --test test/`.
const { describe, test, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const http = require('node:http');
const { spawn, execFile, execFileSync } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const { LeafClient, LeafInvalidInputError, LeafUnknownKeyError } = require('../lib');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const JAR = process.env.LEAF_SERVER_JAR;
const MYSQL = ['--protocol=tcp', '-h', '127.0.0.1', '-P', '3306', '-u', 'root'];
const LEAFID = path.join(__dirname, '..', 'bin', 'leafid.js');

function jarMissing() {
  if (!JAR) return 'LEAF_SERVER_JAR is not set: it names the server jar (leaf-server/target/leaf-server.jar once built)';
  if (!fs.existsSync(JAR) || !fs.statSync(JAR).isFile()) return `LEAF_SERVER_JAR=${JAR} is not a file`;
  return false;
}

function mariaDbMissing() {
  const missing = jarMissing();
  if (missing) return missing;
  try {
    execFileSync('mysql', [...MYSQL, '-e', 'SELECT 1'], { stdio: 'ignore', timeout: 10000 });
    return false;
  } catch {
    return 'needs the mysql client and MariaDB on 127.0.0.1:3306 (root, no password)';
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function status(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

/** The server jar in a directory of its own, on a free port, ready when its readiness answers 200. */
class Server {
  static async start(work, ...args) {
    const server = new Server();
    server.port = await freePort();
    server.url = `http://127.0.0.1:${server.port}`;
    server.dir = fs.mkdtempSync(path.join(work, 'server-'));
    server.logFile = path.join(server.dir, 'server.log');
    const log = fs.openSync(server.logFile, 'w');
    server.process = spawn('java', ['-Xmx256m', '-jar', JAR, `--server.port=${server.port}`,
      `--leaf.snowflake.port=${server.port}`, ...args], { cwd: server.dir, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    server.exited = new Promise((resolve) => server.process.on('exit', resolve));
    let gone = false;
    server.exited.then(() => { gone = true; });
    const deadline = Date.now() + 180000;
    while (Date.now() < deadline && !gone) {
      if (await status(`${server.url}/actuator/health/readiness`) === 200) return server;
      await sleep(500);
    }
    await server.stop();
    throw new Error(`the server did not start: ${fs.readFileSync(server.logFile, 'utf8').slice(-2000)}`);
  }

  async kill() {
    this.process.kill('SIGKILL');
    await this.exited;
  }

  async stop() {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.kill('SIGTERM');
    const stopped = await Promise.race([this.exited.then(() => true), sleep(30000).then(() => false)]);
    if (!stopped) {
      this.process.kill('SIGKILL');
      await this.exited;
    }
  }
}

function leafid(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [LEAFID, ...args], { timeout: 60000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

const increasing = (ids) => ids.every((id, i) => i === 0 || id > ids[i - 1]);

const SKIP_ONE = jarMissing();
const SKIP_TWO = mariaDbMissing();

describe('one real server', () => {
  let work;
  let started;
  // Started by the first test that runs, so that skipped tests start nothing.
  const theServer = () => {
    if (!started) {
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'leafid-node-'));
      started = Server.start(work, '--leaf.formats.o.pattern=O{yyyy}{seq:6}{check}', '--leaf.formats.o.reset=yearly',
        '--leaf.formats.o.tag=node-format', '--leaf.formats.o.zone=UTC',
        '--leaf.formats.b.pattern=B-{yy}{MM}-{seq36:5}{check}', '--leaf.formats.b.tag=node-format-36',
        '--leaf.formats.b.zone=UTC');
    }
    return started;
  };

  after(async () => {
    if (!started) return;
    await (await started.catch(() => undefined))?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('every mode', { skip: SKIP_ONE, timeout: 300000 }, async () => {
    const server = await theServer();
    const client = new LeafClient([server.url]);
    try {
      const segment = await client.segment('leaf-segment-test').nextMany(5000);
      assert.ok(increasing(segment));
      const snowflake = await client.snowflake().nextMany(3000);
      assert.ok(increasing(snowflake));
      assert.ok(snowflake[0] > 2n ** 53n, 'a snowflake ID past 2^53, exact');
      const shard = await client.shard(1, 'alice@example.com').nextMany(100);
      assert.equal(new Set(shard).size, 100);
      assert.ok(shard.every((id) => (id & 0xffn) === 1n));
      const strings = await client.format('o').nextStrings(50);
      assert.equal(new Set(strings).size, 50);
      assert.ok((await client.nextString('o')).startsWith('O'));
      // Base 36 with a Luhn mod 36 check: every string the server gives passes the client's test of it.
      const base36 = await client.format('b').nextStrings(2000);
      assert.equal(new Set(base36).size, 2000);
      // Many concurrent callers on one tag: none twice.
      const buffer = client.segment('leaf-segment-test');
      const taken = (await Promise.all(Array.from({ length: 8 }, async () => {
        const mine = [];
        for (let i = 0; i < 2000; i += 1) mine.push(await buffer.next());
        return mine;
      }))).flat();
      assert.equal(new Set([...segment, ...taken]).size, segment.length + taken.length);
      assert.deepEqual(client.badAnswers(), {});
    } finally {
      client.close();
    }
  });

  test('typed errors', { skip: SKIP_ONE, timeout: 240000 }, async () => {
    const server = await theServer();
    const client = new LeafClient([server.url]);
    try {
      await assert.rejects(client.segment('no-such-tag').next(),
        (e) => e instanceof LeafUnknownKeyError && e.type === 'urn:leaf:problem:unknown-tag' && e.status === 404);
      assert.throws(() => client.segment('bad tag!'), RangeError);
      await assert.rejects(client.shard(1, 'x'.repeat(5000)).next(), LeafInvalidInputError);
    } finally {
      client.close();
    }
  });

  test('the leafid command', { skip: SKIP_ONE, timeout: 240000 }, async () => {
    const server = await theServer();
    const three = await leafid('--servers', server.url, '--segment', 'leaf-segment-test', '--count', '3');
    assert.equal(three.code, 0, three.stderr);
    assert.equal(three.stdout.trim().split('\n').length, 3);
    const unknown = await leafid('--servers', server.url, '--segment', 'no-such-tag');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^leafid: .*unknown-tag/);
  });
});

describe('two real servers on one MariaDB', () => {
  test('1,000,000 IDs through two servers, the first killed halfway, none repeated', { skip: SKIP_TWO, timeout: 600000 }, async () => {
    const database = `leafid_node_${process.pid}`;
    execFileSync('mysql', [...MYSQL, '-e', `DROP DATABASE IF EXISTS ${database}; CREATE DATABASE ${database}`]);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'leafid-node-'));
    const servers = [];
    let client;
    try {
      const schema = fs.readFileSync(path.join(ROOT, 'sql', 'leaf_alloc.sql'));
      execFileSync('mysql', [...MYSQL, database], { input: schema });
      const url = `--leaf.jdbc.url=jdbc:mysql://127.0.0.1:3306/${database}`;
      for (let i = 0; i < 2; i += 1) {
        servers.push(await Server.start(work, url, '--leaf.jdbc.username=root', '--leaf.snowflake.enable=false'));
      }
      // Batches of at most 20,000 (not the 1,000,000 ranges allow), so that many fetches come
      // after the kill and the failover is taken while callers wait.
      client = new LeafClient(servers.map((s) => s.url), { requestTimeout: 1000, maxWait: 10000, maxRangeBatch: 20000, log: null });
      const buffer = client.segment('leaf-segment-test');
      const issued = [];
      let killed;
      // Four callers, each 250 times 1000 IDs; the first one past 500,000 kills the preferred server.
      await Promise.all(Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 250; i += 1) {
          issued.push(...await buffer.nextMany(1000));
          if (issued.length >= 500000 && killed === undefined) killed = servers[0].kill();
        }
      }));
      await killed;
      assert.equal(issued.length, 1000000);
      assert.equal(new Set(issued).size, 1000000, 'an ID handed out twice');
      assert.ok(client.serverFailures()[servers[0].url]?.connection > 0, 'no request met the killed server');
    } finally {
      client?.close();
      for (const server of servers) await server.stop();
      execFileSync('mysql', [...MYSQL, '-e', `DROP DATABASE IF EXISTS ${database}`]);
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
