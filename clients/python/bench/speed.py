"""The Python client's speed, run by leaf-bench/clients-speed.sh:

    python3 clients/python/bench/speed.py --servers URL --segment TAG [--seconds S]

end-to-end: one thread taking IDs one at a time (next_id) of a segment tag from the servers given,
batches as ranges, after a warm-up of a third of S. buffered: the same calls on a buffer whose
batches are already in memory (a server in this process answering each batch as one range, so a
fetch costs next to nothing), and buffered-1000: next_ids(1000) on it, what the buffer itself costs
per ID. Prints one line per figure: NAME IDS_PER_SECOND."""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "conformance"))

from bad_servers import FakeServer, Good  # noqa: E402
from leafid import LeafClient  # noqa: E402


def rate(take, per_call, seconds):
    """IDs a second of `take`, called for `seconds` after a third of that as warm-up."""
    for phase in (seconds / 3, seconds):
        calls, started = 0, time.perf_counter()
        while time.perf_counter() - started < phase:
            for _ in range(1000):
                take()
            calls += 1000
        elapsed = time.perf_counter() - started
    return int(calls * per_call / elapsed)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--servers", required=True)
    parser.add_argument("--segment", required=True)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    with LeafClient(args.servers, log=lambda line: None) as client:
        ids = client.segment(args.segment)
        print("end-to-end", rate(ids.next_id, 1, args.seconds), flush=True)
    memory = FakeServer(Good())
    try:
        with LeafClient([memory.url], log=lambda line: None) as client:
            ids = client.segment("t")
            print("buffered", rate(ids.next_id, 1, args.seconds), flush=True)
            print("buffered-1000", rate(lambda: ids.next_ids(1000), 1000, args.seconds), flush=True)
    finally:
        memory.close()


if __name__ == "__main__":
    main()
