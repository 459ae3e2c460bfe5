"""Servers that answer badly in one way each, and good ones, on 127.0.0.1 free ports: what every
Leaf client must refuse (never an ID of theirs handed out) and what it must serve from. The one set
of bad servers for all the clients: conformance.py runs each client's command against them, and the
Python client's tests use them in-process."""
import http.server
import itertools
import json
import threading
import time
import urllib.parse

RANGES = "application/vnd.leaf.ranges+json"


def lines(ids):
    return 200, {"Content-Type": "text/plain"}, "".join(f"{i}\n" for i in ids).encode()


class Good:
    """Counts up from `start`, as one segment tag would (every ID once), answering ranges to a
    client that asks for them; remembers what it gave, so that a replaying server can give it again.
    After `fails_after` IDs it answers 503, as a server whose database went away."""

    def __init__(self, start=1, fails_after=None):
        self.lock = threading.Lock()
        self.next = start
        self.start = start
        self.fails_after = fails_after
        self.given = []

    def take(self, count):
        with self.lock:
            first = self.next
            self.next += count
        return list(range(first, first + count))

    def issued(self, value):
        return self.start <= value < self.next

    def answer(self, count, accept):
        if self.fails_after is not None and self.next - self.start >= self.fails_after:
            return 503, {"Content-Type": "application/problem+json"}, json.dumps(
                {"type": "urn:leaf:problem:segment-not-ready", "status": 503, "detail": "the database is down"}).encode()
        ids = self.take(count)
        with self.lock:
            self.given.extend(ids[-10_000:])
            del self.given[:-10_000]
        if "ranges" in accept:
            return 200, {"Content-Type": RANGES}, json.dumps(
                {"count": count, "ranges": [[str(ids[0]), str(ids[-1])]]}).encode()
        return lines(ids)

    def replay(self, count):
        with self.lock:
            given = list(self.given)
        return given[-count:] if len(given) >= count else given + [given[-1] if given else 1] * (count - len(given))


class SmallBatches(Good):
    """A good server whose leaf.max-batch is `limit`: a larger count is a 400 invalid-count, which a
    client answers by asking for half as many (any other 400 is the request's fault)."""

    def __init__(self, limit, start=1):
        super().__init__(start)
        self.limit = limit

    def answer(self, count, accept):
        if count > self.limit:
            return 400, {"Content-Type": "application/problem+json"}, json.dumps(
                {"type": "urn:leaf:problem:invalid-count", "status": 400,
                 "detail": f"count {count} is above leaf.max-batch ({self.limit})"}).encode()
        return super().answer(count, accept)


def java_shard(gate_pass):
    """The shard the server gives a gate pass: abs(Java's String.hashCode) % 64, Integer.MIN_VALUE
    giving 0. Written here, not taken from a client, so that no client is judged by its own hash."""
    value = 0
    data = gate_pass.encode("utf-16-be")
    for i in range(0, len(data), 2):
        value = (31 * value + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    value = value - (1 << 32) if value >= 1 << 31 else value
    return 0 if value == -(1 << 31) else abs(value) % 64


class GoodShard:
    """Shard-mode IDs of one app and one shard, as the server lays them out: sequence << 14 | shard
    << 8 | app, one per line."""

    def __init__(self, app, shard, start=1):
        self.app, self.shard = app, shard
        self.sequence = Good(start)

    def id_of(self, sequence, shard=None):
        return sequence << 14 | (self.shard if shard is None else shard) << 8 | self.app

    def issued(self, value):
        return self.ours(value) and self.sequence.issued(value >> 14)

    def ours(self, value):
        """Of this app and shard: all a client can tell of a shard ID it did not see issued."""
        return value & 0x3FFF == self.shard << 8 | self.app

    def answer(self, count, accept):
        return lines(self.id_of(sequence) for sequence in self.sequence.take(count))


class GoodFormat:
    """Strings of the pattern O{yyyy}{seq:6}{check}, each with its Luhn digit, as a format's server
    gives them with the pattern in Leaf-Format."""

    PATTERN = "O{yyyy}{seq:6}{check}"

    def __init__(self, start=1, wrong_check=False):
        self.sequence = Good(start)
        self.wrong_check = wrong_check
        self.strings = set()

    @staticmethod
    def luhn(digits):
        total, doubled = 0, True
        for c in reversed(digits):
            d = int(c) * 2 if doubled else int(c)
            total += d // 10 + d % 10
            doubled = not doubled
        return str((10 - total % 10) % 10)

    def render(self, number):
        body = f"O2026{number:06d}"
        check = self.luhn(body[1:])
        if self.wrong_check:
            check = str((int(check) + 1) % 10)
        return body + check

    def issued(self, value):
        return value in self.strings

    def answer(self, count, accept):
        strings = [self.render(n) for n in self.sequence.take(count)]
        self.strings.update(strings)
        return 200, {"Content-Type": "text/plain", "Leaf-Format": self.PATTERN}, "".join(
            f"{s}\n" for s in strings).encode()


class AlternatingShard:
    """The right shard's IDs on one answer, another shard's on the next: a proxy in front of two
    servers of different configurations. The right ones are good IDs as far as a client can tell."""

    def __init__(self, good_shard):
        self.good = good_shard
        self.own = Good(10**9)
        self.turn = itertools.count()

    def answer(self, count, accept):
        other = (self.good.shard + 1) % 64 if next(self.turn) % 2 else self.good.shard
        return lines(self.good.id_of(sequence, other) for sequence in self.own.take(count))


# Each takes the Good it stands beside (whose IDs a client must be able to tell from its own) and a count.
BAD = {
    "garbage": lambda good, n: lines(["x%d" % i for i in range(n)]),
    "zeros": lambda good, n: lines([0] * n),
    "repeated": lambda good, n: lines([7] * n),
    "decreasing": lambda good, n: lines(list(range(10**15 + n, 10**15, -1))),
    "short": lambda good, n: lines(list(range(10**15, 10**15 + max(n - 1, 1)))[: max(n - 1, 0)]),
    "redirect": lambda good, n: (302, {"Location": "http://127.0.0.1:1/elsewhere"}, b""),
    "overlong-ranges": lambda good, n: (200, {"Content-Type": RANGES},
                                        json.dumps({"count": n, "ranges": [["1", str(2**62)]]}).encode()),
}
SLOW = ("drip", "endless")


class FakeServer:
    """A threaded HTTP server answering every GET with `behaviour`: a name of BAD or SLOW beside the
    Good `source`, "replay" of what `source` gave, or an object with answer(count, accept)."""

    def __init__(self, behaviour, source=None):
        self.behaviour = behaviour
        self.source = source or Good()
        self.requests = 0
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                fake.requests += 1
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                count = int(query.get("count", ["1"])[0])
                fake.handle(self, count, self.headers.get("Accept", ""))

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def handle(self, request, count, accept):
        if self.behaviour == "drip":
            body = "".join(f"{i}\n" for i in range(10**15, 10**15 + count)).encode()
            request.send_response(200)
            request.send_header("Content-Type", "text/plain")
            request.send_header("Content-Length", str(len(body)))
            request.end_headers()
            try:
                for byte in body:
                    request.wfile.write(bytes([byte]))
                    request.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                pass
            return
        if self.behaviour == "endless":
            request.send_response(200)
            request.send_header("Content-Type", "text/plain")
            request.end_headers()
            try:
                for i in itertools.count(10**15):
                    request.wfile.write(f"{i}\n".encode() * 1000)
            except OSError:
                pass
            return
        if self.behaviour == "replay":
            # The IDs another server gave: what a replaying proxy or a server on a copied store does.
            status, headers, body = lines(self.source.replay(count))
        elif isinstance(self.behaviour, str):
            status, headers, body = BAD[self.behaviour](self.source, count)
        else:
            status, headers, body = self.behaviour.answer(count, accept)
        request.send_response(status)
        for name, value in headers.items():
            request.send_header(name, value)
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
