#!/usr/bin/env bash
# Prepares leaf-server for a fast start: makes a class cache of the jar (and the lib/ beside it)
# from one training start of the embedded default, stopped as soon as the context is up
# (-Dspring.context.exit=onRefresh):
#   - JDK 25 or newer: an AOT cache (-XX:AOTCacheOutput, JEP 483/514): classes loaded and linked;
#   - JDK 17 to 24:    a dynamic AppCDS archive (-XX:ArchiveClassesAtExit).
# The cache belongs to the JVM that made it and to the jars it was made from: start with the same
# `java`, and make it again after replacing leaf-server.jar or lib/.
#
#   ops/start-cache.sh [JAR] [DIR] [JAVA]
#     JAR   default leaf-server/target/leaf-server.jar
#     DIR   default leaf-server/target/fast-start; deleted and made again, so it must be missing,
#           empty, or one this script made (it holds .leaf-start-cache)
#     JAVA  default java on the PATH
#
# Prints the command that starts the server with the cache (add your --leaf.* arguments).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="${1:-$root/leaf-server/target/leaf-server.jar}"
dir="${2:-$root/leaf-server/target/fast-start}"
java="${3:-java}"
fail() { echo "start-cache.sh: $*" >&2; exit 1; }

# DIR is deleted and made again, so a mistyped DIR (the home directory, the jar's own directory)
# would lose everything in it: only a missing or empty DIR, or one holding the marker that this
# script writes, is replaced. Checked first, so that the refusal needs neither a jar nor a JVM.
marker=".leaf-start-cache"
made_here() {
    # Also a DIR of the script before the marker: it held only the cache and the training log.
    [ -e "$1/$marker" ] && return 0
    local entries entry
    entries="$(ls -A "$1")" || return 1
    while IFS= read -r entry; do
        case "$entry" in
            '' | leaf.aot | leaf.jsa | training.log) ;;
            *) return 1 ;;
        esac
    done <<< "$entries"
}
if [ -e "$dir" ] || [ -L "$dir" ]; then
    [ -d "$dir" ] || fail "$dir is not a directory; name a directory for the cache (it is deleted and made again)"
    real_dir="$(cd "$dir" && pwd -P)"
    [ "$real_dir" != / ] || fail "refusing to delete and make again /: name a directory of its own for the cache"
    jar_dir="$(cd "$(dirname "$jar")" 2>/dev/null && pwd -P)" || jar_dir=""
    case "$jar_dir/" in
        "$real_dir"/*) fail "$dir holds $jar, and it would be deleted with the directory: name another directory for the cache" ;;
    esac
    made_here "$dir" || fail "$dir is not empty and was not made by start-cache.sh (it has no $marker);" \
        "it would be deleted and made again: name a new or empty directory, or delete this one yourself"
fi

[ -f "$jar" ] || fail "$jar does not exist: build it with ./mvnw -q -DskipTests package"
[ -d "$(dirname "$jar")/lib" ] || fail "$(dirname "$jar")/lib does not exist: the jar needs the lib/ it was built with beside it"
command -v "$java" >/dev/null || fail "$java is not a command"
version="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')"
[ -n "$version" ] || fail "could not tell the Java version of $java"
[ "$version" -ge 17 ] || fail "$java is Java $version; Leaf needs 17 or newer"

rm -rf "$dir"
mkdir -p "$dir"
echo "made by ops/start-cache.sh, which deletes this directory and makes it again" > "$dir/$marker"
app_jar="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"

if [ "$version" -ge 25 ]; then
    cache="$dir/leaf.aot"
    quiet=(-Xlog:cds=off -Xlog:aot=off)
    record=(-XX:AOTCacheOutput="$cache" "${quiet[@]}")
    use=(-XX:AOTCache="$cache" "${quiet[@]}")
else
    cache="$dir/leaf.jsa"
    quiet=(-Xlog:cds=off)
    record=(-XX:ArchiveClassesAtExit="$cache" "${quiet[@]}")
    use=(-XX:SharedArchiveFile="$cache" "${quiet[@]}")
fi

# The training start: the embedded default in a throw-away data directory, on a free port,
# stopped once the context is refreshed. Its classes are what every start loads. With port 0 the
# snowflake worker id needs a port of its own (leaf.snowflake.port), or the start stops early and
# the cache holds only the classes loaded until then.
training="$(mktemp -d)"
trap 'rm -rf "$training"' EXIT
if ! (cd "$training" && "$java" "${record[@]}" -Dspring.context.exit=onRefresh \
        -jar "$app_jar" --leaf.data-dir="$training/data" --server.port=0 --leaf.snowflake.port=8080 --server.address=127.0.0.1 \
        > "$dir/training.log" 2>&1); then
    # onRefresh ends the JVM with a non-zero status on some versions; the cache is what counts.
    [ -s "$cache" ] || { tail -n 20 "$dir/training.log" >&2; fail "the training start made no cache"; }
fi
grep -q "APPLICATION FAILED TO START" "$dir/training.log" \
    && { tail -n 20 "$dir/training.log" >&2; fail "the training start failed; a cache of it would miss most classes"; }
[ -s "$cache" ] || { tail -n 20 "$dir/training.log" >&2; fail "the training start made no cache ($cache)"; }
echo "$java ${use[*]} -jar $app_jar"
