#!/usr/bin/env bash
# CPU flame graphs of leaf-server under load, on 127.0.0.1 only, bounded in time: where the time of
# one request goes. Uses async-profiler (tools.profiler:async-profiler from Maven Central: its
# jar carries libasyncProfiler.so), loaded into the running server with jcmd, so start-up is not
# in the profile.
#
#   leaf-bench/flame.sh LABEL [SECONDS]      (default 15 s of wrk per endpoint, at most 120)
#
# 1. starts the server jar (LEAF_SERVER_JAR, default leaf-server/target/leaf-server.jar) on the
#    embedded default with leaf-bench's /bench/noop, -Xmx256m, a fresh data directory, a free port;
# 2. warms up: wrk on each endpoint for WARMUP_SECONDS (default 20);
# 3. for each of /bench/noop, /api/segment/get/leaf-segment-test, /api/snowflake/get/bench:
#    starts the profiler (cpu samples, every 1 ms; cpu falls back to a timer where perf events are
#    not allowed), drives wrk -t2 -c64 for SECONDS, stops it writing a flame graph;
# 4. writes leaf-bench/target/flame/LABEL-<endpoint>.html (open in a browser; the widths are shares of samples),
#    keeps the raw stacks in leaf-bench/target/flame/LABEL-<endpoint>.collapsed and prints each
#    run's req/s and the share of all samples spent under a few frames (Tomcat's request
#    processing, the filter chain, Spring MVC's dispatcher, Boot's observation, the fast path,
#    socket reads and writes, the JIT compiler, GC).
# SERVER_ARGS adds arguments to the server's command line.
set -euo pipefail
label="${1:-}"
seconds="${2:-15}"
[[ "$label" =~ ^[a-z0-9-]+$ ]] || { echo "usage: $0 LABEL [SECONDS]   (LABEL: a-z, 0-9, -)" >&2; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -ge 1 ] && [ "$seconds" -le 120 ] \
    || { echo "$0: SECONDS must be 1-120" >&2; exit 2; }
warmup="${WARMUP_SECONDS:-20}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jar="${LEAF_SERVER_JAR:-$root/leaf-server/target/leaf-server.jar}"
out="$here/target/flame"
version=4.2
log() { echo "== $*"; }
fail() { echo "flame.sh: $*" >&2; exit 1; }
for tool in java jcmd curl wrk python3 unzip; do
    command -v "$tool" >/dev/null || fail "$tool is not on the PATH"
done
[ -f "$jar" ] || fail "$jar does not exist: build it with ./mvnw -q -DskipTests package"
[ -f "$here/target/classes/org/leafid/bench/http/NoopEndpoint.class" ] || fail "build leaf-bench first"

# The profiler's library, from Maven Central through the wrapper.
lib="$here/target/async-profiler/linux-x64/libasyncProfiler.so"
if [ ! -f "$lib" ]; then
    (cd "$root" && ./mvnw -q dependency:copy -Dartifact="tools.profiler:async-profiler:$version" \
        -DoutputDirectory="$here/target/async-profiler") || fail "could not fetch async-profiler $version"
    unzip -o -q "$here/target/async-profiler/async-profiler-$version.jar" linux-x64/libasyncProfiler.so \
        -d "$here/target/async-profiler"
fi

work="$(mktemp -d -t leaf-flame.XXXXXX)"
pid=""
cleanup() {
    [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
    rm -rf "$work"
}
trap cleanup EXIT
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
read -r -a extra_args <<< "${SERVER_ARGS:-}"
(cd "$work" && exec java -Xmx256m -XX:+UnlockDiagnosticVMOptions \
    -XX:+DebugNonSafepoints -cp "$here/target/classes:$jar" org.leafid.server.LeafServerApplication --spring.main.sources=org.leafid.bench.http.NoopEndpoint \
    --leaf.data-dir="$work/data" --server.address=127.0.0.1 --server.port="$port" "${extra_args[@]}") \
    > "$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || { tail -n 30 "$work/server.log" >&2; fail "the server exited"; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$base/actuator/health/readiness" || true)" = 200 ] && break
    sleep 0.1
done
log "server ready on $base (pid $pid)"

endpoints=(noop segment snowflake)
paths=(/bench/noop /api/segment/get/leaf-segment-test /api/snowflake/get/bench)
for i in "${!paths[@]}"; do
    log "warm-up ${warmup} s: ${paths[$i]}"
    timeout $((warmup + 30)) wrk -t2 -c64 -d"${warmup}s" "$base${paths[$i]}" > /dev/null
done
mkdir -p "$out" "$here/target/flame"
for i in "${!paths[@]}"; do
    file="$out/$label-${endpoints[$i]}.html"
    # One argument with the options quoted inside: jcmd would read "event=cpu" as an option of its own.
    jcmd "$pid" "JVMTI.agent_load $lib \"start,event=cpu,interval=1ms\"" > /dev/null
    rps="$(timeout $((seconds + 30)) wrk -t2 -c64 -d"${seconds}s" "$base${paths[$i]}" \
        | sed -n 's/^Requests\/sec:[[:space:]]*//p')"
    stacks="$here/target/flame/$label-${endpoints[$i]}.collapsed"
    jcmd "$pid" "JVMTI.agent_load $lib \"dump,collapsed,file=$stacks\"" > /dev/null
    jcmd "$pid" "JVMTI.agent_load $lib \"stop,file=$file,title=$label-${endpoints[$i]}-${rps%.*}-req-per-s\"" > /dev/null
    log "${paths[$i]}: $rps req/s -> ${file#"$root"/}"
    python3 - "$stacks" <<'PY'
import sys
FRAMES = [("Tomcat request processing", "org/apache/coyote/http11/Http11Processor.service"),
          ("  filter chain", "org/apache/catalina/core/ApplicationFilterChain.doFilter"),
          ("  Boot's request observation", "org/springframework/web/filter/ServerHttpObservationFilter.doFilterInternal"),
          ("  Spring MVC dispatcher", "org/springframework/web/servlet/DispatcherServlet.doDispatch"),
          ("  the fast path", "org/leafid/server/id/IdFastPathValve.invoke"),
          ("  issuing + answer (IdGetCall)", "org/leafid/server/id/IdGetCall.serve"),
          ("socket reads", "sun/nio/ch/SocketDispatcher.read"),
          ("socket writes", "sun/nio/ch/SocketDispatcher.write"),
          ("JIT compiler", "CompileBroker::compiler_thread_loop"),
          ("GC", "G1")]
total = 0
counts = {name: 0 for name, _ in FRAMES}
for line in open(sys.argv[1]):
    stack, n = line.rsplit(" ", 1)
    n = int(n)
    total += n
    for name, frame in FRAMES:
        if frame in stack:
            counts[name] += n
for name, _ in FRAMES:
    print(f"   {name:<34}{counts[name] / total:>7.1%}")
PY
done
