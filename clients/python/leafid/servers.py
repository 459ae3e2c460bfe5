"""The servers of one client: asked in the order given, each answer read within a deadline and
checked before it is used; a server that fails is skipped for a back-off, and the next one asked."""
import http.client
import json
import threading
import time
import urllib.parse

from .errors import LIMIT_TYPES, LeafUnavailableError, request_error

# A failover's back-off: 250 ms, doubling per failure in a row, up to 5 s; Retry-After up to 60 s.
FIRST_BACK_OFF = 0.25
LONGEST_BACK_OFF = 5.0
LONGEST_RETRY_AFTER = 60.0
# The statuses that say "try another server"; any other 4xx is the request's fault.
RETRIED = (408, 429)


class BadAnswer(Exception):
    """An answer that fails a check: the server's failure, never an ID."""

    def __init__(self, check, detail):
        super().__init__(f"check {check}: {detail}")
        self.check = check


class Server:
    def __init__(self, url):
        parts = urllib.parse.urlsplit(url.rstrip("/"))
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"a server is an http:// URL with a host: {url!r}")
        self.url = url.rstrip("/")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.base = parts.path
        self.down_until = 0.0
        self.failures_in_a_row = 0


class Servers:
    """Sends one GET to the first server up, in order, until one gives an answer that passes `check`."""

    def __init__(self, urls, connect_timeout, request_timeout, max_wait, log):
        if not urls:
            raise ValueError("at least one server")
        self.servers = [Server(url) for url in urls]
        self.connect_timeout = connect_timeout
        self.request_timeout = request_timeout
        self.max_wait = max_wait
        self.log = log
        self.lock = threading.Lock()
        self.idle = {}  # server url -> connections kept alive, not in use
        self.bad_answers = {}  # (server url, check) -> count

    def get(self, path, accept, size_limit, check):
        """The value `check(status, headers, body)` returns for the first good answer.

        Raises the typed LeafRequestError of a 4xx (and of the 503s every server would give alike),
        or LeafUnavailableError when no server gave a good answer within max_wait."""
        deadline = time.monotonic() + self.max_wait
        reasons = []
        while True:
            for server in self.servers:
                if server.down_until > time.monotonic():
                    continue
                try:
                    status, headers, body = self._send(server, path, accept, size_limit)
                except BadAnswer as bad:
                    self._failed(server, f"a bad answer, {bad}", None, bad.check)
                    reasons.append(f"{server.url}: {bad}")
                    continue
                except (OSError, http.client.HTTPException) as failure:
                    self._failed(server, f"{type(failure).__name__}: {failure}", None)
                    reasons.append(f"{server.url}: {failure}")
                    continue
                if 200 <= status < 300:
                    try:
                        value = check(status, headers, body)
                    except BadAnswer as bad:
                        self._failed(server, f"a bad answer, {bad}", None, bad.check)
                        reasons.append(f"{server.url}: {bad}")
                        continue
                    server.failures_in_a_row = 0
                    return value
                problem = _problem(headers, body)
                if 400 <= status < 500 and status not in RETRIED or problem[0] in LIMIT_TYPES:
                    raise request_error(status, problem[0], problem[1])
                why = f"HTTP {status}" + (f" {problem[0]}" if problem[0] else "")
                if 300 <= status < 400:
                    why += f" (a redirect to {headers.get('location')!r} is never followed)"
                self._failed(server, why, _retry_after(headers))
                reasons.append(f"{server.url}: {why}")
            now = time.monotonic()
            if now >= deadline:
                raise LeafUnavailableError("no Leaf server answered well within max_wait: "
                                           + "; ".join(reasons[-len(self.servers):]))
            soonest = min(server.down_until for server in self.servers)
            time.sleep(min(max(soonest - now, 0.005), deadline - now))

    def _failed(self, server, why, retry_after, check=None):
        with self.lock:
            if check:
                key = (server.url, check)
                self.bad_answers[key] = self.bad_answers.get(key, 0) + 1
            server.failures_in_a_row += 1
            back_off = retry_after if retry_after is not None else min(
                FIRST_BACK_OFF * 2 ** (server.failures_in_a_row - 1), LONGEST_BACK_OFF)
            server.down_until = time.monotonic() + back_off
        self._drop_connections(server)
        self.log(f"Leaf server {server.url} failed ({why}); not asked for {int(back_off * 1000)} ms, "
                 "the next server is asked")

    def _connection(self, server):
        """An idle kept-alive connection to the server, or a new one; one request at a time on each."""
        with self.lock:
            idle = self.idle.get(server.url)
            if idle:
                return idle.pop()
        return http.client.HTTPConnection(server.host, server.port, timeout=self.connect_timeout)

    def _release(self, server, connection):
        with self.lock:
            self.idle.setdefault(server.url, []).append(connection)

    def _drop_connections(self, server):
        with self.lock:
            idle = self.idle.pop(server.url, [])
        for connection in idle:
            connection.close()

    def _send(self, server, path, accept, size_limit):
        """One request, the whole answer read within request_timeout and size_limit bytes."""
        deadline = time.monotonic() + self.request_timeout
        connection = self._connection(server)
        try:
            if connection.sock is None:
                connection.timeout = self.connect_timeout
                connection.connect()
            # The socket itself: the connection lets go of it when an answer will close it.
            sock = connection.sock
            sock.settimeout(max(deadline - time.monotonic(), 0.001))
            connection.request("GET", server.base + path, headers={"Accept": accept})
            answer = connection.getresponse()
            chunks, size = [], 0
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BadAnswer("deadline", f"the answer took more than {self.request_timeout} s")
                sock.settimeout(left)
                chunk = answer.read1(65536) if hasattr(answer, "read1") else answer.read(65536)
                if not chunk:
                    break
                size += len(chunk)
                if size > size_limit:
                    raise BadAnswer("size", f"the body passed {size_limit} bytes")
                chunks.append(chunk)
            headers = {name.lower(): value for name, value in answer.getheaders()}
            # Kept only when the answer was read to its end: a chunked one read1 left open would make the
            # connection's next request fail (ResponseNotReady).
            if answer.will_close or not answer.isclosed():
                connection.close()
            else:
                self._release(server, connection)
            return answer.status, headers, b"".join(chunks)
        except TimeoutError as slow:
            connection.close()
            raise BadAnswer("deadline", f"no whole answer within {self.request_timeout} s") from slow
        except BaseException:
            connection.close()
            raise


def _problem(headers, body):
    """(type, detail) of a problem+json answer, or ("", the body's start)."""
    try:
        problem = json.loads(body.decode("utf-8"))
        return str(problem.get("type", "")), str(problem.get("detail", ""))
    except (ValueError, AttributeError):
        return "", body[:200].decode("utf-8", "replace")


def _retry_after(headers):
    value = headers.get("retry-after")
    if value is None or not value.strip().isdigit():
        return None
    return min(float(value), LONGEST_RETRY_AFTER)
