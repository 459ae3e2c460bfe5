#!/usr/bin/env bash
# The Go, Python and Node clients' speed, end to end against one local server and from a buffer
# already filled, on 127.0.0.1 only, bounded in time:
#
#   leaf-bench/clients-speed.sh [SECONDS]      (measured seconds per figure, default 5, at most 60)
#
# One leaf-server on the embedded default (-Xmx256m, a fresh data directory, a free port, the sample
# tag's dynamic step allowed to 10,000,000), then each client's speed command in turn, one client
# at a time (server and client share the machine's cores):
#   go     clients/go/cmd/leafid-speed        (built here with go build)
#   python clients/python/bench/speed.py
#   node   clients/node/bench/speed.js
# each printing `end-to-end N` (IDs a second taken from the server's sample tag, batches as ranges)
# and `buffered N` (the same calls, the batches already in memory); see each command for how. Go
# runs with GOMAXPROCS goroutines and then one; Node with `await next()` and then `tryNext()`;
# Python's `buffered-1000` is next_ids(1000) from memory.
# Last line: CLIENTS go=<e2e>/<buffered> go-1=… python=… node=… node-tryNext=…
set -euo pipefail

seconds="${1:-5}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ] || [ "$seconds" -gt 60 ]; then
    echo "usage: $0 [SECONDS]   (1-60, default 5)" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jar="$root/leaf-server/target/leaf-server.jar"
tag="leaf-segment-test"
# shellcheck source=leaf-bench/lib-server.sh
. "$here/lib-server.sh"
log() { echo "== $*"; }
fail() { echo "clients-speed.sh: $*" >&2; exit 1; }
for tool in java curl python3 go node; do
    command -v "$tool" >/dev/null || fail "$tool is not on the PATH"
done
[ -f "$jar" ] || fail "$jar is missing: build the server first (./mvnw -q -Dmaven.test.skip=true package)"

work="$(mktemp -d -t leaf-clients-speed.XXXXXX)"
pid=""
cleanup() {
    stop_process "$pid"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port="$(free_port)"
base="http://127.0.0.1:$port"
mkdir -p "$work/data"
log "starting leaf-server on $base"
(cd "$work" && exec java -Xmx256m -jar "$jar" --leaf.data-dir="$work/data" --server.address=127.0.0.1 \
    --server.port="$port" --leaf.segment.max-step=10000000) > "$work/server.log" 2>&1 &
pid=$!
await_ready "$base" "$pid" "$work/server.log"

(cd "$root/clients/go" && GOCACHE="$work/go-cache" GOPROXY=off go build -o "$work/leafid-speed" ./cmd/leafid-speed) \
    || fail "the Go speed command did not build"
limit=$((seconds * 4 + 60))
declare -A summary
run() {
    local name="$1"
    shift
    log "$name"
    local out
    out="$(timeout "$limit" "$@" --servers "$base" --segment "$tag" --seconds "$seconds")" || fail "$name failed"
    echo "$out"
    summary[$name]="$(awk '$1 == "end-to-end" {e = $2} $1 == "buffered" {b = $2} END {print e "/" b}' <<< "$out")"
}
run go "$work/leafid-speed"
run go-1 "$work/leafid-speed" --goroutines 1
run python python3 "$root/clients/python/bench/speed.py"
run node node "$root/clients/node/bench/speed.js"
run node-tryNext node "$root/clients/node/bench/speed.js" --call tryNext
echo "CLIENTS go=${summary[go]} go-1=${summary[go-1]} python=${summary[python]} node=${summary[node]} node-tryNext=${summary[node-tryNext]}"
