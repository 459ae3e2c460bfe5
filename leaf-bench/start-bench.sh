#!/usr/bin/env bash
# Start-up benchmark of leaf-server, on 127.0.0.1 only, bounded in time.
#
#   leaf-bench/start-bench.sh [RUNS]      (default 5 cold starts per variant, at most 20)
#
# Measures, for RUNS cold starts of each variant (each a new JVM with -Xmx256m, an empty data
# directory, an empty working directory and a free port), the time from launch until:
#   UNTIL=readiness (the default): /actuator/health/readiness answers 200, on the embedded default;
#   UNTIL=first-id: GET /api/segment/get/leaf-segment-test answers 200 with a positive number, in
#        segment mode on MariaDB/MySQL (below).
# Both are polled every 20 ms. The variants:
#   jar      java -jar leaf-server.jar, the java on the PATH (the plain start, the baseline);
#   cds      the jar with an AppCDS archive (ops/start-cache.sh), the java on the PATH;
#   aot      the jar with a JDK 25 AOT cache (ops/start-cache.sh), when a JDK 25 or newer
#            is found: $JAVA25, or /usr/lib/jvm/*25*;
#   base     java -jar $BASELINE_JAR (an earlier commit's build), so that a change is measured
#            against its baseline in one run;
#   meituan  Meituan's Leaf server (Meituan-Dianping/Leaf on GitHub, built from its source by you;
#            it is not part of this project), jar named by MEITUAN_LEAF_JAR. UNTIL=first-id only:
#            it has no readiness endpoint. It reads its settings from leaf.properties on the
#            classpath only, so it is started as `java -cp <conf dir>:<jar> <the jar's Main-Class>`
#            (what `java -jar` runs) with a leaf.properties this script writes into a temp
#            directory: leaf.segment.enable=true, leaf.jdbc.* naming $MEITUAN_LEAF_DB,
#            leaf.snowflake.enable=false. MEITUAN_JAVA (default java on the PATH) runs it, with
#            MEITUAN_JAVA_OPTS (default --add-opens java.base/java.lang=ALL-UNNAMED: its Spring
#            4.3 defines CGLIB classes by reflection, which Java 17 refuses without it) and
#            -Djava.io.tmpdir in the temp directory (its Tomcat leaves directories there).
# Variants take turns (jar, cds, aot, jar, ...), so a machine that slows down during the run
# affects them alike. The caches are made once, before the runs (not measured), by a training
# start of the embedded default whatever UNTIL is.
#
# UNTIL=first-id, the database (made ready once, before the runs, with the mysql client):
# BENCH_DB_HOST (127.0.0.1), BENCH_DB_PORT (3306), BENCH_DB_USER (root), BENCH_DB_PASSWORD (empty);
# our server's database LEAF_BENCH_DB (leaf_startbench) and Meituan's MEITUAN_LEAF_DB
# (leaf_meituan), each created when missing, with leaf_alloc and the tag leaf-segment-test from
# sql/leaf_alloc.sql (the table is Meituan's, the script keeps existing rows). Our server gets
# --leaf.jdbc.url/username/password and --leaf.snowflake.enable=false (segment mode alone, as
# Meituan's is configured); every start reserves a block in its database.
#
# LEAF_SERVER_JAR names another server jar (default leaf-server/target/leaf-server.jar, built
# when missing). VARIANTS picks the variants (default "jar cds aot", plus base when BASELINE_JAR
# is set, plus meituan when MEITUAN_LEAF_JAR is set and UNTIL=first-id); it must include jar, e.g.
# VARIANTS="base jar" for the plain start only, or MEITUAN_LEAF_JAR=... UNTIL=first-id
# VARIANTS="meituan jar". Logs: leaf-bench/target/start-bench/ (first-ids.txt: the IDs answered).
#
# Last line (medians):
#   UNTIL=readiness  START jar=<ms> cds=<ms|-> aot=<ms|-> best/jar=<ratio> [base=<ms> jar/base=<ratio>]
#   UNTIL=first-id   FIRST-ID jar=<ms> cds=<ms|-> aot=<ms|-> best/jar=<ratio> [base=<ms> jar/base=<ratio>]
#                    [meituan=<ms> jar/meituan=<ratio>]
#   (best is the fastest of jar, cds and aot.)
set -euo pipefail

runs="${1:-5}"
if ! [[ "$runs" =~ ^[0-9]+$ ]] || [ "$runs" -lt 1 ] || [ "$runs" -gt 20 ]; then
    echo "usage: $0 [RUNS]   (1-20, default 5)" >&2
    exit 2
fi
until_what="${UNTIL:-readiness}"
case "$until_what" in
    readiness | first-id) ;;
    *) echo "start-bench.sh: UNTIL=$until_what: readiness (the default) or first-id" >&2; exit 2 ;;
esac
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jar="${LEAF_SERVER_JAR:-$root/leaf-server/target/leaf-server.jar}"
out="$here/target/start-bench"
tag="leaf-segment-test"
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

# UNTIL=first-id: the databases, made ready once (not measured).
ours_args=()
if [ "$until_what" = "first-id" ]; then
    command -v mysql >/dev/null || fail "UNTIL=first-id needs the mysql client (MariaDB's or MySQL's)"
    db_host="${BENCH_DB_HOST:-127.0.0.1}"
    db_port="${BENCH_DB_PORT:-3306}"
    db_user="${BENCH_DB_USER:-root}"
    db_password="${BENCH_DB_PASSWORD:-}"
    ours_db="${LEAF_BENCH_DB:-leaf_startbench}"
    meituan_db="${MEITUAN_LEAF_DB:-leaf_meituan}"
    for name in "$ours_db" "$meituan_db"; do
        [[ "$name" =~ ^[A-Za-z0-9_]+$ ]] || fail "database name $name: letters, digits and _ only"
    done
    sql() {
        MYSQL_PWD="$db_password" timeout 30 mysql --connect-timeout=5 --protocol=TCP \
            -h "$db_host" -P "$db_port" -u "$db_user" "$@"
    }
    sql -e "SELECT 1" >/dev/null || fail "cannot reach the database at $db_host:$db_port as $db_user"
    for name in "$ours_db" "$meituan_db"; do
        sql -e "CREATE DATABASE IF NOT EXISTS \`$name\` DEFAULT CHARACTER SET utf8mb4" \
            || fail "could not create the database $name"
        sql "$name" < "$root/sql/leaf_alloc.sql" || fail "could not make leaf_alloc in $name"
    done
    log "databases on $db_host:$db_port: $ours_db (ours), $meituan_db (meituan); tag $tag"
    ours_args=(--leaf.jdbc.url="jdbc:mysql://$db_host:$db_port/$ours_db?useSSL=false&serverTimezone=UTC"
        --leaf.jdbc.username="$db_user" --leaf.jdbc.password="$db_password" --leaf.snowflake.enable=false)
fi

if [ -n "${VARIANTS:-}" ]; then
    wanted="$VARIANTS"
else
    wanted="jar cds aot${BASELINE_JAR:+ base}"
    if [ -n "${MEITUAN_LEAF_JAR:-}" ]; then
        if [ "$until_what" = "first-id" ]; then
            wanted="$wanted meituan"
        else
            log "MEITUAN_LEAF_JAR is set, but the meituan variant needs UNTIL=first-id: left out"
        fi
    fi
fi
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
        meituan)
            [ "$until_what" = "first-id" ] \
                || fail "the meituan variant has no readiness endpoint: measure it with UNTIL=first-id"
            [ -f "${MEITUAN_LEAF_JAR:-}" ] || fail "the meituan variant needs MEITUAN_LEAF_JAR, an existing jar"
            main_class="$(python3 -c 'import sys, zipfile
manifest = zipfile.ZipFile(sys.argv[1]).read("META-INF/MANIFEST.MF").decode()
print(next((l.split(":", 1)[1].strip() for l in manifest.splitlines() if l.startswith("Main-Class:")), ""))' \
                "$MEITUAN_LEAF_JAR")" || fail "could not read the manifest of $MEITUAN_LEAF_JAR"
            [ -n "$main_class" ] || fail "$MEITUAN_LEAF_JAR names no Main-Class"
            mkdir -p "$work/meituan-conf" "$work/meituan-tmp"
            # Meituan's keys for segment mode, read from the classpath, where this directory
            # comes before the jar (and its own leaf.properties).
            cat > "$work/meituan-conf/leaf.properties" <<EOF
leaf.name=leaf-start-bench
leaf.segment.enable=true
leaf.jdbc.url=jdbc:mysql://$db_host:$db_port/$meituan_db?useUnicode=true&characterEncoding=utf8
leaf.jdbc.username=$db_user
leaf.jdbc.password=$db_password
leaf.snowflake.enable=false
EOF
            command[meituan]="${MEITUAN_JAVA:-java} -Xmx256m ${MEITUAN_JAVA_OPTS---add-opens java.base/java.lang=ALL-UNNAMED} -Djava.io.tmpdir=$work/meituan-tmp -cp $work/meituan-conf:$MEITUAN_LEAF_JAR $main_class" ;;
        *) fail "unknown variant $v (jar, base, cds, aot, meituan)" ;;
    esac
    variants+=("$v")
done
[ -n "${command[jar]:-}" ] || fail "VARIANTS must include jar, the baseline of the ratios"
log "until $until_what"
for v in "${variants[@]}"; do
    log "$v: ${command[$v]}"
done

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# stop_server: SIGTERM, then SIGKILL after 15 s
stop_server() {
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 150); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
}

# start_once <variant> <run>: prints launch to readiness (or to the first ID) in ms
start_once() {
    local variant="$1" run="$2" port data cwd launched url resp="" code body ms
    local -a args
    # This runs in a subshell of its own ($(start_once …)): its server is stopped here when it ends.
    trap '[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null || true' EXIT
    port="$(free_port)"
    data="$work/data-$variant-$run"
    cwd="$work/cwd-$variant-$run" # empty: no leaf.properties of the caller's directory is read
    mkdir -p "$cwd"
    if [ "$variant" = "meituan" ]; then
        args=(--server.address=127.0.0.1 --server.port="$port")
    else
        args=(--leaf.data-dir="$data" --server.address=127.0.0.1 --server.port="$port" ${ours_args[@]+"${ours_args[@]}"})
    fi
    if [ "$until_what" = "first-id" ]; then
        url="http://127.0.0.1:$port/api/segment/get/$tag"
    else
        url="http://127.0.0.1:$port/actuator/health/readiness"
    fi
    launched=$(date +%s%N)
    # shellcheck disable=SC2086 # the command is words by design
    # -Xmx256m before -jar: after it, it would be an argument of the application, not of the JVM.
    (cd "$cwd" && exec ${command[$variant]/ -jar / -Xmx256m -jar } "${args[@]}") > "$out/$variant-$run.log" 2>&1 &
    pid=$!
    ms=""
    for _ in $(seq 1 3000); do # up to 60 s
        kill -0 "$pid" 2>/dev/null || { tail -n 20 "$out/$variant-$run.log" >&2; fail "$variant run $run exited"; }
        resp="$(curl -s --max-time 1 -w ' %{http_code}' "$url" || true)"
        code="${resp##* }"
        if [ "$code" = "200" ]; then
            if [ "$until_what" = "readiness" ]; then
                ms=$(( ($(date +%s%N) - launched) / 1000000 ))
                break
            fi
            body="${resp% *}"
            body="${body//[[:space:]]/}"
            if [[ "$body" =~ ^[0-9]+$ ]] && [[ "$body" =~ [1-9] ]]; then # a positive number
                ms=$(( ($(date +%s%N) - launched) / 1000000 ))
                echo "$variant run $run: $body" >> "$out/first-ids.txt"
                break
            fi
        fi
        sleep 0.02
    done
    stop_server
    [ -n "$ms" ] || fail "$variant run $run did not answer within 60 s (last answer: ${resp:0:200})"
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

samples=()
for v in "${variants[@]}"; do
    samples+=("$v=${times[$v]}")
done
python3 - "$until_what" "${samples[@]}" <<'PY'
import statistics
import sys

until = sys.argv[1]
samples = {}
for arg in sys.argv[2:]:
    name, values = arg.split("=", 1)
    samples[name] = [int(x) for x in values.split()]
names = list(samples)
print()
print(f"{'variant':<8}{'median ms':>10}{'min':>8}{'max':>8}{'vs jar':>9}   runs")
base = statistics.median(samples["jar"])
for name in names:
    s = samples[name]
    m = statistics.median(s)
    print(f"{name:<8}{m:>10.0f}{min(s):>8}{max(s):>8}{m / base:>9.2f}   {' '.join(map(str, s))}")
median = {name: statistics.median(samples[name]) for name in names}
shown = lambda name: f"{median[name]:.0f}" if name in median else "-"
best = min((n for n in names if n not in ("base", "meituan")), key=lambda n: median[n])
head = "START" if until == "readiness" else "FIRST-ID"
line = f"{head} jar={base:.0f} cds={shown('cds')} aot={shown('aot')} best/jar={median[best] / base:.2f}"
if "base" in median:
    line += f" base={median['base']:.0f} jar/base={base / median['base']:.2f}"
if "meituan" in median:
    line += f" meituan={median['meituan']:.0f} jar/meituan={base / median['meituan']:.2f}"
print()
print(line)
PY
