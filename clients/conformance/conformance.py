#!/usr/bin/env python3
"""One conformance suite for every Leaf client: each client's command, the interface the `leafid`
commands share, is run against the bad servers of bad_servers.py, each listed before a good one
(and a good one alone). Every ID a command prints must be one the good server issued, none twice;
the bad server must have been asked; a server replaying what another gave must get no ID through.

    python3 clients/conformance/conformance.py --client NAME=COMMAND [--client NAME=COMMAND ...]

COMMAND is split like a shell would (no shell runs it), e.g.
    --client python="python3 -m leafid" --client go=clients/go/leafid-bin
Exit 1 when any client fails any case; a table of every client and case is printed."""
import argparse
import concurrent.futures
import os
import shlex
import subprocess
import threading
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bad_servers import (BAD, SLOW, AlternatingShard, FakeServer, Good, GoodFormat, GoodShard,  # noqa: E402
                         SmallBatches, java_shard)

GATE_PASS = "alice@example.com"
# A command that takes longer than this is stuck (max wait 5 s, each request bounded by 2 s).
COMMAND_TIMEOUT = 60


class Case:
    """Servers to start, the command's mode arguments, and what its output must be."""

    def __init__(self, name, servers, mode, count, accepts, succeeds=True, asked=None):
        self.name = name
        self.servers = servers  # a function returning (list of FakeServer, the good source)
        self.mode = mode
        self.count = count
        self.accepts = accepts  # (good source, printed value) -> whether the value may be served
        self.succeeds = succeeds
        self.asked = asked  # the index of a server that must have been asked


def numbers(good, value):
    return value.isdigit() and good.issued(int(value))


def cases():
    found = [Case("good", lambda: one_good(), ["--segment", "t"], 5000, numbers)]
    for behaviour in list(BAD) + list(SLOW):
        found.append(Case(behaviour, lambda b=behaviour: bad_then_good(b), ["--segment", "t"], 3000, numbers,
                          asked=0))
    found.append(Case("small-max-batch", small_batches, ["--segment", "t"], 3000, numbers))
    found.append(Case("replay", replay_after_failover, ["--snowflake", "k"], 3000, numbers, succeeds=False,
                      asked=1))
    found.append(Case("alternating-shard", alternating_shard, ["--shard", "1", "--gate-pass", GATE_PASS], 3000,
                      lambda good, value: value.isdigit() and good.ours(int(value)), asked=0))
    found.append(Case("wrong-check-character", wrong_check, ["--format", "o"], 500,
                      lambda good, value: good.issued(value), asked=0))
    return found


def one_good():
    good = Good(start=1)
    return [FakeServer(good)], good


def bad_then_good(behaviour):
    good = Good(start=1)
    return [FakeServer(behaviour, source=good), FakeServer(good)], good


def small_batches():
    good = SmallBatches(limit=100)
    return [FakeServer(good)], good


def replay_after_failover():
    # The good server gives 1,000 IDs, then fails; the next one replays what it gave.
    good = Good(start=1, fails_after=1000)
    return [FakeServer(good), FakeServer("replay", source=good)], good


def alternating_shard():
    good = GoodShard(app=1, shard=java_shard(GATE_PASS))
    return [FakeServer(AlternatingShard(good)), FakeServer(good)], good


def wrong_check():
    good = GoodFormat()
    return [FakeServer(GoodFormat(start=500_000, wrong_check=True)), FakeServer(good)], good


def run_case(command, case):
    """None when the client passed, else what went wrong."""
    servers, good = case.servers()
    try:
        started = time.monotonic()
        done = subprocess.run(command + ["--servers", ",".join(s.url for s in servers), *case.mode,
                                         "--count", str(case.count)],
                              capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
        took = time.monotonic() - started
    except subprocess.TimeoutExpired:
        return f"no exit within {COMMAND_TIMEOUT} s"
    finally:
        for server in servers:
            server.close()
    printed = done.stdout.split()
    if len(set(printed)) != len(printed):
        return f"an ID printed twice ({len(printed) - len(set(printed))} repeats)"
    wrong = [value for value in printed if not case.accepts(good, value)]
    if wrong:
        return f"{len(wrong)} values the good server did not issue, e.g. {wrong[0]!r}"
    if case.asked is not None and servers[case.asked].requests == 0:
        return "the bad server was never asked"
    if case.succeeds:
        if done.returncode != 0:
            return f"exit {done.returncode}: {done.stderr.strip()[:300]}"
        if len(printed) != case.count:
            return f"{len(printed)} values printed for {case.count} asked"
    elif done.returncode != 1 or "leafid" not in done.stderr:
        return f"exit {done.returncode} (1 and the problem on stderr expected): {done.stderr.strip()[:300]}"
    return None if took < COMMAND_TIMEOUT else "too slow"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--client", action="append", required=True, metavar="NAME=COMMAND")
    parser.add_argument("--case", action="append", help="only these cases (by name)")
    args = parser.parse_args()
    printing = threading.Lock()

    def run_client(spec):
        """One client's cases, one after another; the clients run side by side (each case has servers
        of its own, and most of a case is waiting: on a request's deadline, on a dripping body)."""
        name, _, command = spec.partition("=")
        failed = 0
        for case in cases():
            if args.case and case.name not in args.case:
                continue
            started = time.monotonic()
            problem = run_case(shlex.split(command), case)
            verdict = "ok" if problem is None else f"FAILED: {problem}"
            with printing:
                print(f"[conformance] {name:7} {case.name:22} {time.monotonic() - started:5.1f} s  {verdict}",
                      flush=True)
            failed += problem is not None
        return failed

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(args.client)) as pool:
        failures = sum(pool.map(run_client, args.client))
    print(f"[conformance] {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
