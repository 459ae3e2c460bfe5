"""leafid: IDs from Leaf servers, one a line.

    python3 -m leafid --servers URL[,URL...] (--segment TAG | --snowflake KEY | --shard APP --gate-pass P
                      | --format NAME) [--count N]

Exit 1 with the problem on stderr."""
import argparse
import sys

from . import LeafClient, LeafError


class _Parser(argparse.ArgumentParser):
    """A command line that is not one of the forms is a problem like any other: exit 1, one line."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"leafid: {message}", file=sys.stderr)
        sys.exit(1)


def main(argv=None):
    parser = _Parser(prog="leafid", description="IDs from Leaf servers, one a line.")
    parser.add_argument("--servers", required=True, help="URL[,URL...], asked in order")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--segment", metavar="TAG")
    mode.add_argument("--snowflake", metavar="KEY")
    mode.add_argument("--shard", metavar="APP", type=int)
    mode.add_argument("--format", metavar="NAME")
    parser.add_argument("--gate-pass", metavar="P")
    parser.add_argument("--count", type=int, default=1)
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count is at least 1")
    if args.gate_pass is not None and args.shard is None:
        parser.error("--gate-pass goes with --shard")
    try:
        # One batch of exactly --count: a command takes no number it does not print.
        client = LeafClient(args.servers, first_batch=min(args.count, 1000), prefetch_threshold=0,
                            log=lambda line: None)
        if args.segment is not None:
            values = client.segment(args.segment).next_ids(args.count)
        elif args.snowflake is not None:
            values = client.snowflake(args.snowflake).next_ids(args.count)
        elif args.shard is not None:
            values = client.shard(args.shard, args.gate_pass).next_ids(args.count)
        else:
            values = client.format(args.format).next(args.count)
    except (LeafError, ValueError) as problem:
        print(f"leafid: {problem}", file=sys.stderr)
        return 1
    sys.stdout.write("".join(f"{value}\n" for value in values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
