#!/usr/bin/env bash
# Start-up benchmark of leaf-server on the embedded default, on 127.0.0.1 only, bounded in time.
#
#   leaf-bench/start-bench.sh [RUNS]      (default 5 cold starts per variant, at most 20)
#
# Measures launch to readiness (/actuator/health/readiness answering 200, polled every 20 ms) of
# RUNS cold starts, each a new JVM with an empty data directory and a free port, for:
#   jar  java -jar leaf-server.jar, the java on the PATH (the plain start, the baseline);
#   cds  the extracted jar with an AppCDS archive (ops/start-cache.sh), the java on the PATH;
#   aot  the extracted jar with a JDK 25 AOT cache (ops/start-cache.sh), when a JDK 25 or newer
#        is found: $JAVA25, or /usr/lib/jvm/*25*.
# Variants take turns (jar, cds, aot, jar, …), so a machine that slows down during the run
# affects them alike. The caches are made once, before the runs (not measured).
#
# LEAF_SERVER_JAR names another server jar (default leaf-server/target/leaf-server.jar, built
# when missing). BASELINE_JAR adds the variant base: java -jar of that jar (an earlier commit's
# build), taking its turn beside the others, so that a change is measured against its baseline in
# one run. VARIANTS picks the variants (default "jar cds aot", plus base when BASELINE_JAR is set);
# e.g. VARIANTS="base jar" for the plain start only. Logs: leaf-bench/target/start-bench/.
#
# Last line:  START jar=<ms> cds=<ms|-> aot=<ms|-> best/jar=<ratio> [base=<ms> jar/base=<ratio>]
#             (medians)
set -euo pipefail

runs="${1:-5}"
if ! [[ "$runs" =~ ^[0-9]+$ ]] || [ "$runs" -lt 1 ] || [ "$runs" -gt 20 ]; then
    echo "usage: $0 [RUNS]   (1-20, default 5)" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jar="${LEAF_SERVER_JAR:-$root/leaf-server/target/leaf-server.jar}"
out="$here/target/start-bench"
log() { echo "== $*"; }
fail() { echo "start-bench.sh: $*" >&2; exit 1; }
for tool in java curl python3; do
    command -v "$tool" >/dev/null || fail "$tool is not on the PATH"
done
if [ ! -f "$jar" ]; then
    [ -z "${LEAF_SERVER_JAR:-}" ] || fail "LEAF_SERVER_JAR=$jar does not exist"
    log "building $jar"
    (cd "$root" && timeout 900 ./mvnw -q -Dmaven.test.skip=true package) || fail "the build failed"
fi
java25="${JAVA25:-}"
if [ -z "$java25" ]; then
    java25="$(ls -d /usr/lib/jvm/*25*/bin/java 2>/dev/null | head -n 1 || true)"
fi

rm -rf "$out"
mkdir -p "$out"
work="$(mktemp -d /tmp/leaf-start-bench.XXXXXX)"
pid=""
cleanup() {
    [ -z "$pid" ] || kill -9 "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

wanted="${VARIANTS:-jar cds aot${BASELINE_JAR:+ base}}"
declare -A command
variants=()
for v in $wanted; do
    case "$v" in
        jar) command[jar]="java -jar $jar" ;;
        base)
            [ -f "${BASELINE_JAR:-}" ] || fail "the base variant needs BASELINE_JAR, an existing jar"
            command[base]="java -jar $BASELINE_JAR" ;;
        cds)
            log "making the AppCDS archive (one training start)"
            command[cds]="$("$root/ops/start-cache.sh" "$jar" "$work/cds" java)" ;;
        aot)
            if [ -z "$java25" ] || [ ! -x "$java25" ]; then
                log "no JDK 25 found (set JAVA25): the aot variant is left out"
                continue
            fi
            log "making the AOT cache (one training start)"
            command[aot]="$("$root/ops/start-cache.sh" "$jar" "$work/aot" "$java25")" ;;
        *) fail "unknown variant $v (jar, base, cds, aot)" ;;
    esac
    variants+=("$v")
done
[ -n "${command[jar]:-}" ] || fail "VARIANTS must include jar, the baseline of the ratios"
for v in "${variants[@]}"; do
    log "$v: ${command[$v]}"
done

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_once <variant> <run>: prints launch-to-readiness in ms
start_once() {
    local variant="$1" run="$2" port data launched code ms
    port="$(free_port)"
    data="$work/data-$variant-$run"
    launched=$(date +%s%N)
    # shellcheck disable=SC2086 # the command is words by design
    # -Xmx256m before -jar: after it, it would be an argument of the application, not of the JVM.
    ${command[$variant]/ -jar / -Xmx256m -jar } --leaf.data-dir="$data" --server.address=127.0.0.1 --server.port="$port" \
        > "$out/$variant-$run.log" 2>&1 &
    pid=$!
    ms=""
    for _ in $(seq 1 3000); do # up to 60 s
        kill -0 "$pid" 2>/dev/null || { tail -n 20 "$out/$variant-$run.log" >&2; fail "$variant run $run exited"; }
        code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/actuator/health/readiness" || true)"
        if [ "$code" = "200" ]; then
            ms=$(( ($(date +%s%N) - launched) / 1000000 ))
            break
        fi
        sleep 0.02
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
    [ -n "$ms" ] || fail "$variant run $run was not ready within 60 s"
    echo "$ms"
}

declare -A times
for run in $(seq 1 "$runs"); do
    for v in "${variants[@]}"; do
        ms="$(start_once "$v" "$run")"
        times[$v]="${times[$v]:-} $ms"
        log "run $run $v: $ms ms"
    done
done

python3 - "${variants[*]}" "${times[jar]}" "${times[cds]:-}" "${times[aot]:-}" "${times[base]:-}" <<'PY'
import statistics
import sys

names = sys.argv[1].split()
samples = {name: [int(x) for x in sys.argv[2 + i].split()] for i, name in enumerate(["jar", "cds", "aot", "base"])
           if sys.argv[2 + i].strip()}
print()
print(f"{'variant':<8}{'median ms':>10}{'min':>8}{'max':>8}{'vs jar':>9}   runs")
base = statistics.median(samples["jar"])
for name in names:
    s = samples[name]
    m = statistics.median(s)
    print(f"{name:<8}{m:>10.0f}{min(s):>8}{max(s):>8}{m / base:>9.2f}   {' '.join(map(str, s))}")
median = {name: statistics.median(samples[name]) for name in names}
shown = lambda name: f"{median[name]:.0f}" if name in median else "-"
best = min((n for n in names if n != "base"), key=lambda n: median[n])
line = f"START jar={base:.0f} cds={shown('cds')} aot={shown('aot')} best/jar={median[best] / base:.2f}"
if "base" in median:
    line += f" base={median['base']:.0f} jar/base={base / median['base']:.2f}"
print()
print(line)
PY
