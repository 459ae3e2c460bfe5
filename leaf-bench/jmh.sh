#!/usr/bin/env bash
# Runs leaf-bench's JMH benchmarks with 1 and with 2 threads, in about 6 minutes on 2 cores.
#
#   leaf-bench/jmh.sh          throughput table
#   leaf-bench/jmh.sh --gc     the same with -prof gc: allocation per operation (B/op) as well
#   leaf-bench/jmh.sh --smoke  one short fork per benchmark (about 40 s): proves they run, CI's
#                              check; its figures are not measurements
#
# Builds target/benchmarks.jar when it is missing or older than the sources. Each thread count
# is one JMH run of 11 trials (AtomicLong baseline; segment generator and get(tag) at steps
# 1,000 and 100,000; snowflake; borrow-ahead; the opaque permutation over two ranges; a block
# reservation on the local MariaDB and PostgreSQL), each trial 2 forks x (2 x 1 s warm-up + 5 x 1 s
# measured), about 16 s: 341 s for both thread counts on 2026-11-28, bounded at 300 s each. Two
# forks of short iterations, rather than one fork of long ones, keep the error bars honest when
# other work shares the machine.
# JMH_ARGS replaces those run options, e.g. for final figures on a quiet machine
# JMH_ARGS="-f 3 -wi 5 -w 2s -i 5 -r 2s" (the bound is then an hour per thread count).
# Results: leaf-bench/target/jmh/threads-{1,2}.json and .log.
#
# Last line, single-thread figures, segment at step 100,000:
#   JMH segment-gen/atomic=<a> segment-get/atomic=<b> snowflake-ids/s=<c>
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jar="$here/target/benchmarks.jar"
out="$here/target/jmh"

gc=false
smoke=false
for arg in "$@"; do
    case "$arg" in
        --gc) gc=true ;;
        --smoke) smoke=true ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "jmh.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

command -v java >/dev/null || { echo "jmh.sh: java is not on the PATH" >&2; exit 1; }
command -v python3 >/dev/null || { echo "jmh.sh: python3 is needed to read JMH's JSON" >&2; exit 1; }

# 1. Build the jar when it is missing or any source it is made of is newer.
stale() {
    [ ! -f "$jar" ] && return 0
    [ -n "$(find "$root/pom.xml" "$here/pom.xml" "$here/src" "$root/leaf-core/pom.xml" "$root/leaf-core/src/main" \
        -newer "$jar" -type f -print -quit)" ]
}
if stale; then
    echo "== building $jar"
    (cd "$root" && timeout 600 ./mvnw -q -DskipTests -pl leaf-bench -am package)
fi

# 2. One JMH run per thread count; the JSON is what the summary reads.
default_opts="-f 2 -wi 2 -w 1s -i 5 -r 1s"
$smoke && default_opts="-f 1 -wi 1 -w 300ms -i 2 -r 300ms"
read -r -a run_opts <<< "${JMH_ARGS:-$default_opts}"
run_limit=300 # s per thread count with the default options (about 170 s measured)
[ -n "${JMH_ARGS:-}" ] && run_limit=3600
prof=()
if $gc; then
    prof=(-prof gc)
fi
mkdir -p "$out"
started=$SECONDS
for threads in 1 2; do
    echo "== JMH, $threads thread(s): ${run_opts[*]} ${prof[*]}"
    rm -f "$out/threads-$threads.json"
    if ! timeout "$run_limit" java -jar "$jar" "${run_opts[@]}" "${prof[@]}" -t "$threads" \
            -rf json -rff "$out/threads-$threads.json" 'org\.leafid\.bench\..*' > "$out/threads-$threads.log" 2>&1; then
        tail -n 40 "$out/threads-$threads.log" >&2
        echo "jmh.sh: the JMH run with $threads thread(s) failed or timed out; log: $out/threads-$threads.log" >&2
        exit 1
    fi
    # JMH's own table: from its header line to the end of the output.
    sed -n '/^Benchmark  /,$p' "$out/threads-$threads.log"
done
echo "== JMH took $((SECONDS - started)) s"

# 3. Summary and the last line.
python3 - "$out/threads-1.json" "$out/threads-2.json" <<'PY'
import json
import sys

REF_STEP = "100000"  # the step whose ratios go on the last line
rows = []
for path in sys.argv[1:]:
    with open(path) as f:
        for r in json.load(f):
            name = r["benchmark"].rsplit(".", 2)
            rows.append({
                "bench": name[1].replace("Benchmark", "") + "." + name[2],
                "step": r.get("params", {}).get("step", "-"),
                "threads": r["threads"],
                "score": r["primaryMetric"]["score"],
                "error": r["primaryMetric"]["scoreError"],
                "alloc": r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score"),
            })

def find(bench, threads, step="-"):
    for r in rows:
        if r["bench"] == bench and r["threads"] == threads and r["step"] == step:
            return r["score"]
    raise SystemExit(f"jmh.sh: no result for {bench} threads={threads} step={step}")

print()
print("Summary (ops/s; ratio = score / AtomicLong.getAndIncrement with the same threads)")
header = f"{'benchmark':<26}{'step':>8}{'threads':>9}{'ops/s':>16}{'± error':>14}{'ratio':>8}"
has_gc = any(r["alloc"] is not None for r in rows)
if has_gc:
    header += f"{'alloc B/op':>12}"
print(header)
for r in sorted(rows, key=lambda r: (r["bench"], int(r["step"]) if r["step"] != "-" else 0, r["threads"])):
    ratio = r["score"] / find("AtomicLong.getAndIncrement", r["threads"])
    err = r["error"] if r["error"] == r["error"] else 0.0  # NaN with a single iteration
    line = f"{r['bench']:<26}{r['step']:>8}{r['threads']:>9}{r['score']:>16,.0f}{err:>14,.0f}{ratio:>8.3f}"
    if has_gc:
        line += f"{r['alloc']:>12.3f}" if r["alloc"] is not None else f"{'-':>12}"
    print(line)

print()
for name, step in (("Segment.generator", "1000"), ("Segment.generator", REF_STEP),
                   ("Segment.get", "1000"), ("Segment.get", REF_STEP), ("Snowflake.nextId", "-"),
                   ("AtomicLong.getAndIncrement", "-")):
    one, two = find(name, 1, step), find(name, 2, step)
    print(f"2 threads / 1 thread  {name:<26} step {step:>6}: {two / one:.3f}")

atomic = find("AtomicLong.getAndIncrement", 1)
gen = find("Segment.generator", 1, REF_STEP) / atomic
get = find("Segment.get", 1, REF_STEP) / atomic
snow = find("Snowflake.nextId", 1)
print(f"(last line: single thread, segment step {REF_STEP})")
print(f"JMH segment-gen/atomic={gen:.3f} segment-get/atomic={get:.3f} snowflake-ids/s={snow:.1f}")
PY
