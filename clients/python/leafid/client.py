"""LeafClient: IDs from Leaf servers, in batches, checked, with failover."""
import collections
import re
import sys
import threading
import urllib.parse

from .formats import Pattern
from .ids import IdBuffer, Kind, shard_of
from .servers import BadAnswer, Servers

# Tags and keys are 1-128 characters of A-Z a-z 0-9 . _ : - (the server's rule, checked here first).
KEY = re.compile(r"[A-Za-z0-9._:-]{1,128}")
RECENT_STRINGS = 4096


def _stderr(line):
    print(line, file=sys.stderr, flush=True)


class LeafClient:
    """IDs from Leaf servers. Safe for threads; close() when done.

    servers: URLs, asked in order (the first preferred while it answers well).
    first_batch: the size of each buffer's first batch (16: enough to check the order within an
    answer); later batches follow the rate of use.
    """

    def __init__(self, servers, *, connect_timeout=1.0, request_timeout=2.0, max_batch=1000,
                 max_range_batch=1_000_000, prefetch_threshold=0.1, max_wait=5.0, target_fetch_interval=0.1,
                 first_batch=16, log=_stderr):
        if isinstance(servers, str):
            servers = [url for url in servers.split(",") if url.strip()]
        self.servers = Servers([url.strip() for url in servers], connect_timeout, request_timeout, max_wait, log)
        self.max_batch = max_batch
        self.max_range_batch = max_range_batch
        self.prefetch_threshold = prefetch_threshold
        self.max_wait = max_wait
        self.target_fetch_interval = target_fetch_interval
        self.first_batch = first_batch
        self.lock = threading.Lock()
        self.buffers = {}
        self.formats = {}

    def _buffer(self, key, path, kind, max_batch):
        with self.lock:
            buffer = self.buffers.get(key)
            if buffer is None:
                buffer = self.buffers[key] = IdBuffer(self, path, kind, max_batch, self.first_batch)
            return buffer

    def segment(self, tag):
        """The IDs of a segment tag: .next_id(), .next_ids(n)."""
        _check_key("tag", tag)
        return self._buffer(("segment", tag), f"/api/segment/get/{tag}", Kind("segment", True),
                            self.max_range_batch)

    def snowflake(self, key="leaf"):
        """Snowflake IDs (the key is checked by the server, not used, as in Leaf)."""
        _check_key("key", key)
        return self._buffer(("snowflake", key), f"/api/snowflake/get/{key}", Kind("snowflake", True),
                            self.max_batch)

    def shard(self, app_id, gate_pass=None):
        """The IDs of a shard-mode app: of the gate pass's shard, or any shard without one."""
        if not isinstance(app_id, int) or not 0 <= app_id <= 255:
            raise ValueError(f"an app id is 0..255: {app_id!r}")
        if gate_pass is None:
            return self._buffer(("shard", app_id, None), f"/api/shard/get/{app_id}", Kind("shard", False, 1 << 14,
                                                                                          app_id), self.max_batch)
        if not gate_pass:
            raise ValueError("a gate pass is not empty")
        shard = shard_of(gate_pass)
        # One buffer per shard, not per gate pass: every gate pass of a shard takes the same IDs.
        return self._buffer(("shard", app_id, shard),
                            f"/api/shard/get/{app_id}?gatePass={urllib.parse.quote(gate_pass, safe='')}",
                            Kind("shard", False, 1 << 14, app_id, shard), self.max_batch)

    def next_string(self, name):
        """The next string of a format (leaf.formats.<name>)."""
        return self.format(name).next(1)[0]

    def format(self, name):
        _check_key("format", name)
        with self.lock:
            strings = self.formats.get(name)
            if strings is None:
                strings = self.formats[name] = FormatStrings(self, name)
            return strings

    def bad_answers(self):
        """{(server, check): count} of answers refused."""
        with self.servers.lock:
            return dict(self.servers.bad_answers)

    def close(self):
        with self.lock:
            self.buffers.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FormatStrings:
    """Strings of one format, fetched in batches; each answer carries its pattern in Leaf-Format,
    the same on every server, and none of its strings was served before."""

    def __init__(self, client, name):
        self.client = client
        self.name = name
        self.lock = threading.Lock()
        self.queue = collections.deque()
        self.pattern = None
        self.recent = collections.deque(maxlen=RECENT_STRINGS)
        self.recent_set = set()
        self.batch = 16

    def next(self, n):
        out = []
        with self.lock:
            while len(out) < n:
                if not self.queue:
                    size = min(max(self.batch, n - len(out)), self.client.max_batch)
                    self.queue.extend(self.client.servers.get(
                        f"/api/format/get/{self.name}?count={size}", "text/plain", 200 * size + 1024,
                        lambda status, headers, body, size=size: self._accept(headers, body, size)))
                    self.batch = min(self.batch * 2, self.client.max_batch)
                out.append(self.queue.popleft())
        return out

    def _accept(self, headers, body, asked):
        pattern = headers.get("leaf-format")
        if not pattern:
            raise BadAnswer("pattern", "no Leaf-Format header")
        if self.pattern is not None and pattern != self.pattern.text:
            raise BadAnswer("pattern", f"pattern {pattern!r}, not {self.pattern.text!r} as before")
        try:
            parsed = self.pattern or Pattern(pattern)
        except ValueError as unreadable:
            raise BadAnswer("pattern", f"Leaf-Format: {unreadable}") from None
        lines = body.decode("utf-8", "replace").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) != asked:
            raise BadAnswer("count", f"{len(lines)} strings for {asked} asked")
        seen = set()
        for line in lines:
            problem = parsed.problem(line)
            if problem:
                raise BadAnswer("format", f"{line[:40]!r} {problem}: not a string of {pattern!r}")
            if line in seen or line in self.recent_set:
                raise BadAnswer("repeated", f"{line!r} was served before")
            seen.add(line)
        self.pattern = parsed
        for line in lines:
            if len(self.recent) == self.recent.maxlen:
                self.recent_set.discard(self.recent[0])
            self.recent.append(line)
            self.recent_set.add(line)
        return lines


def _check_key(what, value):
    if not isinstance(value, str) or not KEY.fullmatch(value):
        raise ValueError(f"a {what} is 1-128 characters of A-Z a-z 0-9 . _ : -: {value!r}")
