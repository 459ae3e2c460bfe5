#!/usr/bin/env bash
# HTTP load test of leaf-server on the embedded default, on 127.0.0.1 only, bounded in time.
#
#   leaf-bench/http-bench.sh [SECONDS_PER_RUN]      (default 20, at most 600)
#
# 1. installs wrk if missing (Debian package) and builds leaf-server/target/leaf-server.jar and
#    leaf-bench's classes if missing;
# 2. starts the server with -Xmx256m, leaf-bench's NoopEndpoint added (GET /bench/noop, answering
#    like a single-ID call but issuing nothing: leaf-bench/target/classes ahead of the jar on the
#    class path, and --spring.main.sources), a fresh temporary leaf.data-dir and a free port
#    on 127.0.0.1, and reports the time from launch to readiness;
# 3. warms up in rounds of wrk on each endpoint in turn (WARMUP_SECONDS each, default 10) until
#    the no-op endpoint's req/s is within 5 % of the previous round's (at least 2 rounds, at most
#    WARMUP_ROUNDS, default 4): the JIT needs a minute or more on 2 busy cores, and a server still
#    warming up favours whichever endpoint runs last;
# 4. measures in ROUNDS rounds (default 3), each driving wrk -t2 -c64 -d<SECONDS_PER_RUN>s
#    --latency on every endpoint in turn: the bare servlet (the ceiling, below), /bench/noop,
#    /api/segment/get/leaf-segment-test, /api/snowflake/get/bench,
#    /api/shard/get/1?gatePass=bench%40example.com (the sample app, memory buffer) and
#    /api/segment/get/leaf-segment-test?count=1000, /api/format/get/bench-order (a daily order number,
#    ORD{yyyy}{MM}{dd}{seq:10}{check}); odd rounds in that order, even rounds in the
#    reverse, so a machine that drifts during the run favours no endpoint. Every figure is the
#    median of an endpoint's rounds; the spread (lowest to highest req/s) is printed beside it;
# 5. prints req/s, IDs/s, p50/p99/p99.9 latency and non-2xx answers of each, the ratios, the heap in
#    use after the load and whether the log has an ERROR; stops the server.
#
# CORES=split runs the server and the bare servlet on core 1 and wrk on core 0 (taskset), so the
# load generator does not take CPU from the server it measures; the default (shared) lets the
# scheduler place them. The machine needs at least 2 cores for split.
#
# The sample tag's row step is 2000; the dynamic step doubles on every load that follows the
# previous one within 15 minutes (up to leaf.segment.max-step), so the warm-up's batch calls
# raise it to 512,000 and the batch run is not held up by the database. The step is printed.
#
# SERVER_ARGS adds arguments to the server's command line, to measure a tuning before making it
# the default (e.g. SERVER_ARGS="--server.tomcat.max-keep-alive-requests=-1").
# LEAF_SERVER_JAR names another server jar to run (default leaf-server/target/leaf-server.jar,
# built only when missing: after changing the server, rebuild it with ./mvnw -q -DskipTests package).
# The server log and wrk's outputs are kept in leaf-bench/target/http-bench/.
#
# The last three lines:
#   LATENCY cores=<shared|split> segment p99=<ms> p99.9=<ms> snowflake p99=<ms> p99.9=<ms>
#   CEILING segment/bare=<a> snowflake/bare=<b> noop/bare=<c>   (BareServletServer: one plain
#           servlet on embedded Tomcat, no Spring, started beside the server)
#   RATIOS segment/noop=<x> snowflake/noop=<y> shard/noop=<s> batch1000/single=<z>
#   FORMAT format/segment=<f>   (the format endpoint against the segment endpoint, same run)
# (z = IDs/s of the batch call / IDs/s of the single segment call).
set -euo pipefail

seconds="${1:-20}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ] || [ "$seconds" -gt 600 ]; then
    echo "usage: $0 [SECONDS_PER_RUN]   (1-600, default 20)" >&2
    exit 2
fi
warmup="${WARMUP_SECONDS:-10}"
rounds="${ROUNDS:-3}"
cores="${CORES:-shared}"
[[ "$rounds" =~ ^[0-9]+$ ]] && [ "$rounds" -ge 1 ] && [ "$rounds" -le 9 ] \
    || { echo "http-bench.sh: ROUNDS must be 1-9: $rounds" >&2; exit 2; }
case "$cores" in
    shared) on_server=(); on_load=() ;;
    split)
        [ "$(nproc)" -ge 2 ] || { echo "http-bench.sh: CORES=split needs 2 cores" >&2; exit 2; }
        command -v taskset >/dev/null || { echo "http-bench.sh: CORES=split needs taskset" >&2; exit 2; }
        on_server=(taskset -c 1); on_load=(taskset -c 0) ;;
    *) echo "http-bench.sh: CORES must be shared or split: $cores" >&2; exit 2 ;;
esac
max_rounds="${WARMUP_ROUNDS:-4}"
[[ "$warmup" =~ ^[0-9]+$ ]] && [ "$warmup" -le 120 ] \
    || { echo "http-bench.sh: WARMUP_SECONDS must be 0-120: $warmup" >&2; exit 2; }
[[ "$max_rounds" =~ ^[0-9]+$ ]] && [ "$max_rounds" -ge 1 ] && [ "$max_rounds" -le 10 ] \
    || { echo "http-bench.sh: WARMUP_ROUNDS must be 1-10: $max_rounds" >&2; exit 2; }

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jar="${LEAF_SERVER_JAR:-$root/leaf-server/target/leaf-server.jar}"
tag="leaf-segment-test"
# The embedded database's sample shard-mode app, memory buffer; one user's gate pass (one shard).
shard_path="/api/shard/get/1?gatePass=bench%40example.com"
batch=1000

log() { echo "== $*"; }
fail() { echo "http-bench.sh: $*" >&2; exit 1; }

for tool in java curl python3; do
    command -v "$tool" >/dev/null || fail "$tool is not on the PATH"
done

# 1. Tools and the server jar.
if ! command -v wrk >/dev/null; then
    log "installing wrk (apt-get install -y wrk)"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    timeout 300 $sudo apt-get install -y -qq wrk >/dev/null \
        || { timeout 300 $sudo apt-get update -qq && timeout 300 $sudo apt-get install -y -qq wrk >/dev/null; } \
        || fail "could not install wrk"
fi
noop_classes="$here/target/classes"
bench_jar="$here/target/benchmarks.jar"
if [ ! -f "$jar" ] || [ ! -f "$noop_classes/org/leafid/bench/http/NoopEndpoint.class" ] || [ ! -f "$bench_jar" ]; then
    [ -f "$jar" ] || [ -z "${LEAF_SERVER_JAR:-}" ] || fail "LEAF_SERVER_JAR=$jar does not exist"
    log "building $jar and leaf-bench"
    (cd "$root" && timeout 900 ./mvnw -q -Dmaven.test.skip=true package) || fail "the build failed"
elif [ -z "${LEAF_SERVER_JAR:-}" ] && [ -n "$(find "$root/leaf-server/src/main" "$root/leaf-core/src/main" \
        -newer "$jar" -type f -print -quit)" ]; then
    log "warning: $jar is older than the sources; rebuild with ./mvnw -q -DskipTests package"
fi

# 2. Start the server: free port, fresh data directory, killed on any exit.
work="$(mktemp -d -t leaf-http-bench.XXXXXX)"
results="$here/target/http-bench"
server_log="$work/server.log"
pid=""
stop_server() {
    [ -n "$pid" ] || return 0
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 150); do # graceful shutdown, up to 15 s
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
    pid=""
}
bare_pid=""
stop_bare() {
    [ -n "$bare_pid" ] || return 0
    kill "$bare_pid" 2>/dev/null || true
    wait "$bare_pid" 2>/dev/null || true
    bare_pid=""
}
cleanup() {
    stop_bare
    stop_server
    rm -rf "$results" && mkdir -p "$results" && cp "$work"/*.txt "$work"/*.log "$results"/ 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
mkdir -p "$work/data"
read -r -a extra_args <<< "${SERVER_ARGS:-}"
log "starting leaf-server on 127.0.0.1:$port (-Xmx256m, with /bench/noop, data dir $work/data, cores $cores) ${extra_args[*]}"
launched_ns="$(date +%s%N)"
# From the work directory, so that no ./leaf.properties of the caller's is picked up.
(cd "$work" && exec "${on_server[@]}" java -Xmx256m -cp "$noop_classes:$jar" org.leafid.server.LeafServerApplication \
    --spring.main.sources=org.leafid.bench.http.NoopEndpoint --leaf.data-dir="$work/data" \
    '--leaf.formats.bench-order.pattern=ORD{yyyy}{MM}{dd}{seq:10}{check}' --leaf.formats.bench-order.reset=daily \
    --server.address=127.0.0.1 --server.port="$port" "${extra_args[@]}") > "$server_log" 2>&1 &
pid=$!

status() { curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$1" || true; }
ready_ms=""
for _ in $(seq 1 600); do # up to 60 s
    kill -0 "$pid" 2>/dev/null || { tail -n 30 "$server_log" >&2; fail "the server exited during start-up"; }
    if [ "$(status "$base/actuator/health/readiness")" = "200" ]; then
        ready_ms=$(( ($(date +%s%N) - launched_ns) / 1000000 ))
        break
    fi
    sleep 0.1
done
[ -n "$ready_ms" ] || { tail -n 30 "$server_log" >&2; fail "the server was not ready within 60 s"; }
started_line="$(grep -o 'Started [A-Za-z]* in [0-9.]* seconds[^)]*)' "$server_log" | head -n 1 || true)"
log "ready: launch to readiness ${ready_ms} ms (${started_line:-no 'Started' line})"

# The endpoints answer before any load is measured.
[ "$(status "$base/bench/noop")" = "200" ] \
    || fail "/bench/noop does not answer 200: is $noop_classes on the launcher's path (a jar built with the ZIP layout)?"
[ "$(status "$base$shard_path")" = "200" ] || fail "$shard_path does not answer 200 (shard mode off?)"

# The ceiling: one plain servlet on embedded Tomcat, no Spring (BareServletServer), beside the server.
bare_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
bare_url="http://127.0.0.1:$bare_port/bare"
"${on_server[@]}" java -Xmx256m -cp "$bench_jar" org.leafid.bench.http.BareServletServer "$bare_port" "$work/bare-tomcat" \
    > "$work/bare.log" 2>&1 &
bare_pid=$!
for _ in $(seq 1 300); do # up to 30 s
    [ "$(status "$bare_url")" = "200" ] && break
    kill -0 "$bare_pid" 2>/dev/null || { cat "$work/bare.log" >&2; fail "the bare servlet exited"; }
    sleep 0.1
done
[ "$(status "$bare_url")" = "200" ] || fail "the bare servlet did not answer on $bare_url within 30 s"
log "bare servlet (the ceiling) on $bare_url"
lines="$(curl -sf --max-time 5 "$base/api/segment/get/$tag?count=$batch" | wc -l)"
[ "$lines" -eq "$batch" ] || fail "the batch call answered $lines lines, not $batch"

step_now() {
    curl -sf --max-time 5 "$base/api/segment/cache" \
        | python3 -c 'import json, sys; print(next((t["step"] for t in json.load(sys.stdin) if t["tag"] == sys.argv[1]), "?"))' "$tag" \
        || echo "?"
}
rps_of() { sed -n 's/^Requests\/sec:[[:space:]]*\([0-9.]*\).*/\1/p' "$1"; }

names=(bare noop segment snowflake shard batch1000 format)
paths=("$bare_url" "/bench/noop" "/api/segment/get/$tag" "/api/snowflake/get/bench" "$shard_path" "/api/segment/get/$tag?count=$batch" "/api/format/get/bench-order")

drive() { # drive <seconds> <path or URL> <output file>
    local url="$2"
    [[ "$url" == http* ]] || url="$base$url"
    timeout $(( $1 + 30 )) "${on_load[@]}" wrk -t2 -c64 -d"$1s" --latency -s "$here/latency.lua" "$url" > "$3" 2>&1 \
        || { cat "$3" >&2; fail "wrk failed on $2"; }
}

# 3. Warm-up rounds until the no-op rate settles.
log "segment step of $tag before warm-up: $(step_now)"
if [ "$warmup" -gt 0 ]; then
    previous=""
    settled=false
    for round in $(seq 1 "$max_rounds"); do
        for i in "${!paths[@]}"; do
            drive "$warmup" "${paths[$i]}" "$work/warmup-$round-${names[$i]}.txt"
        done
        noop_rps="$(rps_of "$work/warmup-$round-noop.txt")"
        log "warm-up round $round (${warmup} s per endpoint): /bench/noop ${noop_rps} req/s"
        if [ -n "$previous" ] && python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if abs(b - a) <= 0.05 * a else 1)' \
                "$previous" "$noop_rps"; then
            settled=true
            break
        fi
        previous="$noop_rps"
    done
    $settled || log "warning: the no-op rate had not settled after $max_rounds warm-up rounds; figures are provisional"
fi
log "segment step of $tag after warm-up: $(step_now)"

# 4. The measured rounds: every endpoint once a round, the order reversed every other round.
for round in $(seq 1 "$rounds"); do
    order=("${!paths[@]}")
    if [ $((round % 2)) -eq 0 ]; then
        order=()
        for (( i = ${#paths[@]} - 1; i >= 0; i-- )); do order+=("$i"); done
    fi
    for i in "${order[@]}"; do
        log "round $round/$rounds, ${seconds} s: wrk -t2 -c64 -d${seconds}s --latency ${paths[$i]}"
        drive "$seconds" "${paths[$i]}" "$work/run-${names[$i]}-$round.txt"
    done
done
log "segment step of $tag after the runs: $(step_now)"

# 5. Heap and log, then stop the server before the report.
heap_bytes="$(curl -sf --max-time 5 "$base/actuator/prometheus" \
    | awk '/^jvm_memory_used_bytes\{/ && /area="heap"/ { sum += $NF } END { printf "%.0f", sum }' || echo "")"
errors="$(grep -cE '^[^ ]+ +ERROR ' "$server_log" || true)"
stop_bare
stop_server

python3 - "$work" "$heap_bytes" "$errors" "$ready_ms" "$batch" "$shard_path" "$rounds" "$cores" <<'PY'
import re
import statistics
import sys

work, heap_bytes, errors, ready_ms, batch, shard_path, rounds, cores = sys.argv[1:9]
rounds = int(rounds)
RUNS = [("bare", "bare servlet (no Spring)", 1), ("noop", "/bench/noop", 1),
        ("segment", "/api/segment/get/leaf-segment-test", 1), ("snowflake", "/api/snowflake/get/bench", 1),
        ("shard", shard_path, 1), ("batch1000", f"/api/segment/get/leaf-segment-test?count={batch}", int(batch)),
        ("format", "/api/format/get/bench-order (a daily order number)", 1)]
UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}

def parse(path):
    text = open(path).read()
    def latency(pct):
        m = re.search(rf"^\s*{pct}%\s+([0-9.]+)(us|ms|s|m|h)\s*$", text, re.M)
        return float(m.group(1)) * UNIT_MS[m.group(2)] if m else float("nan")
    def tail(pct):
        m = re.search(rf"^P{pct} (\d+)$", text, re.M)
        return int(m.group(1)) / 1000.0 if m else float("nan")
    rps = re.search(r"^Requests/sec:\s+([0-9.]+)", text, re.M)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    sock = re.search(r"Socket errors: (.*)", text)
    return {"rps": float(rps.group(1)) if rps else 0.0, "p50": latency(50), "p99": latency(99),
            "p999": tail("99.9"), "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "socket": sock.group(1).strip() if sock else None}

runs = {name: [parse(f"{work}/run-{name}-{r}.txt") for r in range(1, rounds + 1)] for name, _, _ in RUNS}
med = {name: {key: statistics.median(run[key] for run in rs) for key in ("rps", "p50", "p99", "p999")}
       for name, rs in runs.items()}
noop = med["noop"]["rps"] or float("nan")
bare = med["bare"]["rps"] or float("nan")
print()
print(f"medians of {rounds} round(s), wrk -t2 -c64, cores {cores}")
print(f"{'endpoint':<46}{'req/s':>10}{'IDs/s':>13}{'p50 ms':>8}{'p99 ms':>8}{'p99.9 ms':>9}"
      f"{'non-2xx':>8}{'vs bare':>8}  req/s of each round")
for name, path, n in RUNS:
    m = med[name]
    ids = f"{m['rps'] * n:,.0f}" if name not in ("noop", "bare") else "-"
    non2xx = sum(run["non2xx"] for run in runs[name])
    each = " ".join(f"{run['rps']:,.0f}" for run in runs[name])
    print(f"{path:<46}{m['rps']:>10,.0f}{ids:>13}{m['p50']:>8.2f}{m['p99']:>8.2f}{m['p999']:>9.2f}"
          f"{non2xx:>8}{m['rps'] / bare:>8.3f}  {each}")
for name, _, _ in RUNS:
    for r, run in enumerate(runs[name], 1):
        if run["socket"]:
            print(f"socket errors on {name}, round {r}: {run['socket']}")
print()
for name in ("bare", "noop"):
    rps = [run["rps"] for run in runs[name]]
    spread = (max(rps) - min(rps)) / statistics.median(rps)
    print(f"{name}: spread of its rounds {spread:.1%}"
          + ("  (over 10 %: the machine was not steady; figures are provisional)" if spread > 0.10 else ""))
heap = f"{int(heap_bytes) / 1048576:.1f} MB" if heap_bytes else "unknown (no /actuator/prometheus answer)"
print(f"start-up to readiness: {ready_ms} ms; heap used after the load: {heap} (-Xmx256m); "
      f"ERROR lines in the server log: {errors or 0}")
single_ids = med["segment"]["rps"]
z = med["batch1000"]["rps"] * int(batch) / single_ids if single_ids else float("nan")
print(f"LATENCY cores={cores} segment p99={med['segment']['p99']:.2f} p99.9={med['segment']['p999']:.2f} "
      f"snowflake p99={med['snowflake']['p99']:.2f} p99.9={med['snowflake']['p999']:.2f}")
print(f"CEILING segment/bare={med['segment']['rps'] / bare:.3f} snowflake/bare={med['snowflake']['rps'] / bare:.3f} "
      f"noop/bare={noop / bare:.3f}")
print(f"RATIOS segment/noop={med['segment']['rps'] / noop:.3f} snowflake/noop={med['snowflake']['rps'] / noop:.3f} "
      f"shard/noop={med['shard']['rps'] / noop:.3f} batch1000/single={z:.3f}")
print(f"FORMAT format/segment={med['format']['rps'] / med['segment']['rps']:.3f}")
PY
