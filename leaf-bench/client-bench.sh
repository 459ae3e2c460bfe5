#!/usr/bin/env bash
# leaf-client's throughput, in two parts, on 127.0.0.1 only, bounded in time:
#
#   leaf-bench/client-bench.sh [SECONDS]      (end-to-end seconds per mode, default 10, at most 120)
#
# 1. JMH: ClientBufferBenchmark (nextId() from a filled buffer, batches from memory, no HTTP) and the
#    AtomicLong baseline, 1 and 2 threads, 1 fork x (2 x 1 s warm-up + 5 x 1 s measured) each,
#    about 40 s; prints the ratios (target: the buffer at least 0.5 x AtomicLong).
# 2. End to end: one leaf-server on the embedded default (-Xmx256m, a fresh data directory, a free
#    port, --leaf.max-batch=100000 and the sample tag's dynamic step allowed to 10,000,000), and one
#    client JVM (ClientLoad, -Xmx512m) with 4 threads and a largest batch of 100,000, taking segment
#    IDs of the sample tag, then snowflake IDs, each for a third of SECONDS as warm-up and then
#    SECONDS measured. Segment batches come as ranges, so they may grow to the defaults of the
#    client's maxRangeBatch and the server's leaf.segment.max-range-batch (1,000,000); the largest
#    batch of 100,000 bounds snowflake's, written out ID by ID. Server and client share the
#    machine's cores. Snowflake is bounded by the server's 4,096 sequences per ms (leaf layout),
#    4.1 M IDs/s at most per server.
#
# CLIENT_BATCH changes the largest batch of both (default 100000; the server's leaf.max-batch
# default is 1000). The server log is kept in leaf-bench/target/client-bench/.
#
# Last line: CLIENT buffer/atomic=<r> segment-ids/s=<a> snowflake-ids/s=<b>
set -euo pipefail

seconds="${1:-10}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ] || [ "$seconds" -gt 120 ]; then
    echo "usage: $0 [SECONDS]   (1-120, default 10)" >&2
    exit 2
fi
batch="${CLIENT_BATCH:-100000}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jar="$root/leaf-server/target/leaf-server.jar"
bench_jar="$here/target/benchmarks.jar"
results="$here/target/client-bench"
tag="leaf-segment-test"

# shellcheck source=leaf-bench/lib-server.sh
. "$here/lib-server.sh"
log() { echo "== $*"; }
fail() { echo "client-bench.sh: $*" >&2; exit 1; }
for tool in java curl python3; do
    command -v "$tool" >/dev/null || fail "$tool is not on the PATH"
done

if [ ! -f "$jar" ] || [ ! -f "$bench_jar" ] \
        || ! python3 -c "import sys, zipfile; sys.exit(0 if \"org/leafid/bench/client/ClientLoad.class\" in zipfile.ZipFile(sys.argv[1]).namelist() else 1)" "$bench_jar"; then
    log "building $jar and leaf-bench"
    (cd "$root" && timeout 900 ./mvnw -q -Dmaven.test.skip=true package) || fail "the build failed"
fi

# 1. JMH.
mkdir -p "$results"
for threads in 1 2; do
    log "JMH, $threads thread(s)"
    timeout 300 java -jar "$bench_jar" -f 1 -wi 2 -w 1s -i 5 -r 1s -t "$threads" -rf json \
        -rff "$results/jmh-$threads.json" 'org\.leafid\.client\.ClientBufferBenchmark|org\.leafid\.bench\.AtomicLongBenchmark' \
        > "$results/jmh-$threads.log" 2>&1 || { tail -n 30 "$results/jmh-$threads.log" >&2; fail "JMH failed"; }
    sed -n '/^Benchmark  /,$p' "$results/jmh-$threads.log"
done
ratio="$(python3 - "$results/jmh-1.json" "$results/jmh-2.json" <<'PY'
import json, sys
ratios = []
for path in sys.argv[1:]:
    scores = {r["benchmark"].rsplit(".", 2)[1]: r["primaryMetric"]["score"] for r in json.load(open(path))}
    threads = json.load(open(path))[0]["threads"]
    r = scores["ClientBufferBenchmark"] / scores["AtomicLongBenchmark"]
    print(f"buffer/atomic, {threads} thread(s): {r:.3f}", file=sys.stderr)
    ratios.append(r)
print(f"{ratios[0]:.3f}")
PY
)"

# 2. End to end: the server, killed on any exit.
work="$(mktemp -d -t leaf-client-bench.XXXXXX)"
pid=""
cleanup() {
    stop_process "$pid"
    cp "$work"/*.log "$results"/ 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port="$(free_port)"
base="http://127.0.0.1:$port"
mkdir -p "$work/data"
log "starting leaf-server on $base (--leaf.max-batch=$batch)"
(cd "$work" && exec java -Xmx256m -jar "$jar" --leaf.data-dir="$work/data" --server.address=127.0.0.1 \
    --server.port="$port" --leaf.max-batch="$batch" --leaf.segment.max-step=10000000) > "$work/server.log" 2>&1 &
pid=$!
await_ready "$base" "$pid" "$work/server.log"

segment_line="$(timeout $((seconds * 2 + 60)) java -Xmx512m -cp "$bench_jar" org.leafid.bench.client.ClientLoad \
    "$base" "$tag" 4 "$seconds" "$batch" | tail -n 1)"
echo "$segment_line"
snowflake_line="$(timeout $((seconds * 2 + 60)) java -Xmx512m -cp "$bench_jar" org.leafid.bench.client.ClientLoad \
    "$base" snowflake 4 "$seconds" "$batch" | tail -n 1)"
echo "$snowflake_line"
grep -q ' ERROR ' "$work/server.log" && log "the server log has an ERROR: $results/server.log" || true

segment_rate="$(sed -n 's/.*ids\/s=\([0-9]*\).*/\1/p' <<< "$segment_line")"
snowflake_rate="$(sed -n 's/.*ids\/s=\([0-9]*\).*/\1/p' <<< "$snowflake_line")"
echo "CLIENT buffer/atomic=$ratio segment-ids/s=$segment_rate snowflake-ids/s=$snowflake_rate"
