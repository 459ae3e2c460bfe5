"""Servers that answer badly in one way each, and a good one, on 127.0.0.1 free ports: what the
client must refuse (never an ID of theirs handed out) and what it must serve from."""
import http.server
import itertools
import json
import threading
import time
import urllib.parse


class Behaviour:
    """The answer to `count` IDs asked for: (status, headers, body) or a callable writing it."""

    def __init__(self):
        self.lock = threading.Lock()
        self.next = 1

    def take(self, count):
        with self.lock:
            first = self.next
            self.next += count
        return list(range(first, first + count))


class Good(Behaviour):
    """Counts up from `start`, as one segment tag would (every ID once)."""

    def __init__(self, start=1):
        super().__init__()
        self.next = start

    def answer(self, count, accept):
        ids = self.take(count)
        if "ranges" in accept:
            return 200, {"Content-Type": "application/vnd.leaf.ranges+json"}, json.dumps(
                {"count": count, "ranges": [[str(ids[0]), str(ids[-1])]]}).encode()
        return 200, {"Content-Type": "text/plain"}, "".join(f"{i}\n" for i in ids).encode()


def lines(ids):
    return 200, {"Content-Type": "text/plain"}, "".join(f"{i}\n" for i in ids).encode()


BAD = {
    "garbage": lambda b, n: lines(["x%d" % i for i in range(n)]),
    "zeros": lambda b, n: lines([0] * n),
    "repeated": lambda b, n: lines([7] * n),
    "decreasing": lambda b, n: lines(list(range(10**12 + n, 10**12, -1))),
    "short": lambda b, n: lines(b.take(max(n - 1, 1))[: max(n - 1, 0)] or []),
    "redirect": lambda b, n: (302, {"Location": "http://127.0.0.1:1/elsewhere"}, b""),
    "overlong-ranges": lambda b, n: (200, {"Content-Type": "application/vnd.leaf.ranges+json"},
                                     json.dumps({"count": n, "ranges": [["1", str(2**62)]]}).encode()),
}


class FakeServer:
    """A threaded HTTP server answering GET /api/.../get/... with `behaviour` (a name of BAD, "drip",
    "endless", "replay" of a `Good` given as `source`, or a Good)."""

    def __init__(self, behaviour, source=None):
        self.behaviour = behaviour
        self.source = source or Good()
        self.replayed = []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                count = int(query.get("count", ["1"])[0])
                accept = self.headers.get("Accept", "")
                fake.handle(self, count, accept)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def handle(self, request, count, accept):
        if self.behaviour == "drip":
            body = "".join(f"{i}\n" for i in self.source.take(count)).encode()
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
                for i in itertools.count(1):
                    request.wfile.write(f"{i}\n".encode() * 1000)
            except OSError:
                pass
            return
        if self.behaviour == "replay":
            # The IDs another server gave: what a replaying proxy or a server on a copied store does.
            status, headers, body = lines(self.source.replay(count))
        elif isinstance(self.behaviour, Good):
            status, headers, body = self.behaviour.answer(count, accept)
        else:
            status, headers, body = BAD[self.behaviour](self.source, count)
        request.send_response(status)
        for name, value in headers.items():
            request.send_header(name, value)
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Recording(Good):
    """A good server that remembers what it gave, so that a replaying one can give it again."""

    def __init__(self, start=1):
        super().__init__(start)
        self.given = []

    def answer(self, count, accept):
        status, headers, body = super().answer(count, "text/plain")
        self.given.extend(int(line) for line in body.split())
        return status, headers, body

    def replay(self, count):
        return (self.given[-count:] if len(self.given) >= count else self.given + [1] * (count - len(self.given)))
