"""IDs of one tag, the snowflake, or one shard-mode app: fetched in batches, checked, served from
memory, the next batch fetched in the background before this one runs out."""
import collections
import json
import threading
import time

from .errors import LeafInvalidInputError
from .servers import BadAnswer

RANGES = "application/vnd.leaf.ranges+json"
# A batch above the servers' leaf.max-batch: asked again at half the size.
INVALID_COUNT = "urn:leaf:problem:invalid-count"
# A decimal ID and its newline: no good answer is longer per ID asked for.
BYTES_PER_ID = 20
# Answers accepted before, each compared with a new one: two requests in flight at once are judged
# against each other too.
RECENT_ANSWERS = 4
# Shard IDs have no order across answers: the last IDs served are remembered by value.
RECENT_SHARD_IDS = 16384
SHARD_STRIDE = 1 << 14
# The first batch of a buffer: enough IDs that their order can be checked within the answer.
FIRST_BATCH = 16


class Kind:
    """What a buffer's answers must look like."""

    def __init__(self, name, increasing, stride=1, app=None, shard=None):
        self.name = name
        self.increasing = increasing
        self.stride = stride
        self.app = app
        self.shard = shard


def java_string_hash(text):
    """Java's String.hashCode, over UTF-16 code units, as a signed 32-bit int."""
    value = 0
    data = text.encode("utf-16-be")
    for i in range(0, len(data), 2):
        value = (31 * value + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def shard_of(gate_pass):
    """The shard of a gate pass: Math.abs(gatePass.hashCode()) % 64, as the server computes it."""
    value = java_string_hash(gate_pass)
    return 0 if value == -(1 << 31) else abs(value) % 64


class Runs:
    """An answer as runs (first, last, stride), and the IDs they stand for, never written out."""

    def __init__(self, runs):
        self.runs = runs

    def count(self):
        return sum((last - first) // stride + 1 for first, last, stride in self.runs)

    def ids(self):
        for first, last, stride in self.runs:
            yield from range(first, last + 1, stride)


def parse(body, content_type, asked, kind):
    """The runs of a good answer of `asked` IDs; BadAnswer otherwise."""
    if content_type.startswith(RANGES):
        try:
            answer = json.loads(body.decode("utf-8"))
            pairs = [(int(first), int(last)) for first, last in answer["ranges"]]
            declared = int(answer["count"])
        except (ValueError, KeyError, TypeError) as bad:
            raise BadAnswer("format", f"not an answer as ranges: {bad}") from None
        runs, total, before = [], 0, None
        for first, last in pairs:
            if last < first or (kind.stride > 1 and (last - first) % kind.stride):
                raise BadAnswer("format", f"the run {first}..{last} is not whole steps of {kind.stride}")
            if kind.increasing and before is not None and first <= before:
                raise BadAnswer("increasing", f"the run {first}..{last} starts at or below {before}")
            total += (last - first) // kind.stride + 1
            if total > asked:
                raise BadAnswer("count", f"runs of more than the {asked} IDs asked for")
            runs.append((first, last, kind.stride))
            before = last
        if total != asked or declared != asked:
            raise BadAnswer("count", f"{total} IDs ({declared} declared) for {asked} asked")
        return Runs(runs)
    lines = body.decode("ascii", "replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != asked:
        raise BadAnswer("count", f"{len(lines)} lines for {asked} IDs asked")
    ids = []
    for line in lines:
        if not line.isdigit() or len(line) > 19:
            raise BadAnswer("format", f"{line[:40]!r} is not a decimal ID")
        ids.append(int(line))
    runs = []
    for value in ids:
        if runs and runs[-1][2] == 1 and value == runs[-1][1] + 1 and kind.increasing:
            runs[-1] = (runs[-1][0], value, 1)
        else:
            runs.append((value, value, 1))
    return Runs(runs)


def _first_shared(a, b):
    """An ID two increasing lists of runs both hold, or None: one walk through both."""
    i = j = 0
    while i < len(a) and j < len(b):
        (a_first, a_last, a_stride), (b_first, b_last, b_stride) = a[i], b[j]
        low, high = max(a_first, b_first), min(a_last, b_last)
        if low <= high:
            if a_stride == 1 and b_stride == 1:
                return low
            for value in range(low, high + 1):
                if (value - a_first) % a_stride == 0 and (value - b_first) % b_stride == 0:
                    return value
        if a_last < b_last:
            i += 1
        else:
            j += 1
    return None


class IdBuffer:
    """A double buffer of IDs of one key, safe for threads: `next_id()` and `next_ids(n)`."""

    def __init__(self, client, path, kind, max_batch, first_batch=FIRST_BATCH):
        self.client = client
        self.path = path
        self.kind = kind
        self.max_batch = max_batch
        self.batch = max(1, min(first_batch, max_batch))
        # Where the next batch is fetched: a part of the batch left, as the threshold says; -1 never.
        self.refill_at = -1
        self.lock = threading.Condition()
        self.queue = collections.deque()  # runs [next, last, stride] still to serve
        self.left = 0
        self.fetching = False
        self.failure = None
        self.mark = 0  # the largest ID handed out (increasing kinds)
        self.recent = collections.deque(maxlen=RECENT_ANSWERS)  # the runs of the last answers accepted
        self.recent_ids = collections.deque(maxlen=RECENT_SHARD_IDS)
        self.recent_id_set = set()
        self.last_fetch = None

    def next_id(self):
        # The common case, kept short: one lock, one run, no list (Python pays for every call).
        with self.lock:
            if self.left > 1:
                run = self.queue[0]
                value = run[0]
                run[0] = value + run[2]
                if value >= run[1]:
                    self.queue.popleft()
                self.left -= 1
                if self.left <= self.refill_at:
                    self._fetch_in_background()
                return value
        return self.next_ids(1)[0]

    def next_ids(self, n):
        if n < 1:
            raise ValueError(f"n is at least 1: {n}")
        out = []
        # The fetch gives up after max_wait (and one request's time) with the servers' reasons: wait for them.
        deadline = time.monotonic() + self.client.max_wait + self.client.servers.request_timeout + 1
        with self.lock:
            while len(out) < n:
                if self.left == 0:
                    self._fetch_in_background()
                    if not self.lock.wait_for(lambda: self.left > 0 or self.failure is not None,
                                              max(deadline - time.monotonic(), 0)):
                        if self.left == 0:
                            from .errors import LeafUnavailableError
                            raise LeafUnavailableError(f"no ID of {self.path} within max_wait")
                    if self.left == 0:
                        failure, self.failure = self.failure, None
                        raise failure
                run = self.queue[0]
                take = min(n - len(out), (run[1] - run[0]) // run[2] + 1)
                out.extend(range(run[0], run[0] + take * run[2], run[2]))
                run[0] += take * run[2]
                if run[0] > run[1]:
                    self.queue.popleft()
                self.left -= take
            if self.left <= self.refill_at:
                self._fetch_in_background()
        return out

    def _fetch_in_background(self):
        if not self.fetching:
            self.fetching = True
            threading.Thread(target=self._fetch, name=f"leafid-fetch {self.path}", daemon=True).start()

    def _size(self):
        """Batches follow the rate of use towards one fetch per target interval."""
        now = time.monotonic()
        if self.last_fetch is not None:
            lasted = now - self.last_fetch
            if lasted < self.client.target_fetch_interval and self.batch < self.max_batch:
                self.batch = min(self.batch * 2, self.max_batch)
            elif lasted > 4 * self.client.target_fetch_interval and self.batch > 1:
                self.batch = max(self.batch // 2, 1)
        self.last_fetch = now
        self._set_refill()
        return self.batch

    def _set_refill(self):
        threshold = self.client.prefetch_threshold
        self.refill_at = int(self.batch * threshold) if threshold > 0 else -1

    def _fetch(self):
        try:
            with self.lock:
                size = self._size()
            runs = self._ask(size)
            with self.lock:
                for first, last, stride in runs:
                    self.queue.append([first, last, stride])
                    self.left += (last - first) // stride + 1
                self.fetching = False
                self.lock.notify_all()
        except Exception as failure:  # handed to the callers waiting, raised there
            with self.lock:
                self.failure = failure
                self.fetching = False
                self.lock.notify_all()

    def _ask(self, size):
        """One batch of `size`, halved while the servers refuse it as larger than their leaf.max-batch."""
        accept = f"{RANGES}, text/plain;q=0.5" if self.kind.name in ("segment", "shard") else "text/plain"
        separator = "&" if "?" in self.path else "?"
        while True:
            try:
                return self.client.servers.get(f"{self.path}{separator}count={size}", accept,
                                               BYTES_PER_ID * size + 1024,
                                               lambda status, headers, body: self._accept(
                                                   parse(body, headers.get("content-type", ""), size, self.kind)))
            except LeafInvalidInputError as refused:
                if refused.type != INVALID_COUNT or size == 1:
                    raise
                size = max(size // 2, 1)
                with self.lock:
                    self.max_batch = min(self.max_batch, size)
                    self.batch = min(self.batch, size)
                    self._set_refill()

    def _accept(self, answer):
        """The runs of the answer this client may serve; BadAnswer for one it must not."""
        kind = self.kind
        with self.lock:
            if kind.increasing:
                ids_high = answer.runs[-1][1]
                previous = None
                for first, last, _ in answer.runs:
                    if first < 0:
                        raise BadAnswer("positive", f"{first} is below 0")
                    if previous is not None and first <= previous:
                        raise BadAnswer("increasing", f"{first} after {previous}")
                    previous = last
                if ids_high <= 0:
                    raise BadAnswer("positive", "every ID is 0 or below")
                floor = self.mark
                if ids_high <= floor:
                    raise BadAnswer("behind", f"every ID is at or below {floor}, already served")
                for before in self.recent:
                    met = _first_shared(before, answer.runs)
                    if met is not None:
                        raise BadAnswer("repeated", f"ID {met} was in an answer accepted before")
                self.recent.append(answer.runs)
                self.mark = ids_high
                # An answer that only starts below the mark (a server on an older block after a
                # failover) is served from above it; 0, which a tag starting at 0 issues first, never.
                kept = []
                for first, last, stride in answer.runs:
                    if last <= floor:
                        continue
                    if first <= floor:
                        first += ((floor - first) // stride + 1) * stride
                    kept.append((first, last, stride))
                return kept
            ids = list(answer.ids())
            seen = set()
            for value in ids:
                if value <= 0:
                    raise BadAnswer("positive", f"{value} is 0 or below")
                if kind.app is not None and value & 0xFF != kind.app:
                    raise BadAnswer("app", f"{value} is of app {value & 0xFF}, not {kind.app}")
                if kind.shard is not None and (value >> 8) & 0x3F != kind.shard:
                    raise BadAnswer("shard", f"{value} is of shard {(value >> 8) & 0x3F}, not {kind.shard}")
                if value in seen or value in self.recent_id_set:
                    raise BadAnswer("repeated", f"{value} was served before")
                seen.add(value)
            for value in ids:
                if len(self.recent_ids) == self.recent_ids.maxlen:
                    self.recent_id_set.discard(self.recent_ids[0])
                self.recent_ids.append(value)
                self.recent_id_set.add(value)
            return [(value, value, 1) for value in ids]
