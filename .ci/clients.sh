#!/usr/bin/env bash
# The clients for Go, Python and Node (clients/), run by .ci/run after the build: each client's own
# tests (against bad servers in-process, the real server from the jar the build made, and a million
# IDs through two servers with one killed), go vet, the Python wheel and the Node package built, and
# the one conformance suite (clients/conformance) with all four clients, leaf-client included.
# Installs Go and Node from Debian when missing. Writes nothing into the work tree outside target/.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
log() { echo "[clients] $*"; }
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
need() {
    command -v "$1" >/dev/null && return
    log "installing $2 (for $1)"
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}
need go golang-go
need node nodejs
need npm npm
# The wheel is built by Debian's python3 with Debian's build and setuptools: nothing downloaded.
/usr/bin/python3 -c 'import build, setuptools' 2>/dev/null || {
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-build python3-setuptools >/dev/null; }

status=0
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export LEAF_SERVER_JAR="$root/leaf-server/target/leaf-server.jar"
export PYTHONDONTWRITEBYTECODE=1
# Go writes its build cache under HOME; CI's may be read-only or shared.
export GOCACHE="$scratch/go-cache" GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local

step() {
    local name="$1" started=$SECONDS
    shift
    log "$name"
    if ! "$@"; then
        log "FAILED: $name"
        status=1
    fi
    log "$name: $((SECONDS - started)) s"
}

# Python, Go and Node side by side (their tests wait on servers more than they compute), each into a
# log of its own, printed whole in this order once all three have ended; the conformance suite after.
# shellcheck disable=SC2317 # called as "${language}_steps" below
python_steps() { # its tests, then the wheel as a release builds it (setuptools from Debian, nothing downloaded)
    step "python: unittest" bash -c 'cd clients/python && python3 -m unittest discover -s tests -v'
    step "python: wheel" /usr/bin/python3 -m build --no-isolation --wheel --outdir "$scratch/python-dist" clients/python
    rm -rf clients/python/build clients/python/*.egg-info
}
# shellcheck disable=SC2317 # called as "${language}_steps" below
go_steps() { # vet, the tests, and the command built once for the conformance suite
    step "go: vet" bash -c 'cd clients/go && go vet ./...'
    step "go: test" bash -c 'cd clients/go && go test -count=1 -timeout 600s ./...'
    step "go: build leafid" bash -c "cd clients/go && go build -o '$scratch/leafid-go' ./cmd/leafid"
}
# shellcheck disable=SC2317 # called as "${language}_steps" below
node_steps() { # the tests and the package
    step "node: test" bash -c 'cd clients/node && node --test test/'
    step "node: npm pack" bash -c "cd clients/node && npm pack --silent --pack-destination '$scratch' >/dev/null && ls '$scratch'/leafid-*.tgz"
}
for language in python go node; do
    ("${language}_steps" > "$scratch/$language.log" 2>&1; echo "$status" > "$scratch/$language.status") &
done
wait
for language in python go node; do
    cat "$scratch/$language.log"
    [ "$(cat "$scratch/$language.status" 2>/dev/null)" = 0 ] || { log "FAILED: $language"; status=1; }
done

# Java: leaf-client behind the same command line (a test-side driver), with its test classpath.
step "java: classpath" ./mvnw -B -q -o dependency:build-classpath -pl leaf-client \
    -Dmdep.outputFile="$scratch/java-classpath.txt" -Dmdep.includeScope=test
java_cp="leaf-client/target/test-classes:leaf-client/target/classes:$(cat "$scratch/java-classpath.txt" 2>/dev/null)"

step "conformance: four clients" python3 clients/conformance/conformance.py \
    --client python="env PYTHONPATH=clients/python python3 -m leafid" \
    --client go="$scratch/leafid-go" \
    --client node="node clients/node/bin/leafid.js" \
    --client java="java -cp $java_cp org.leafid.client.ConformanceCommand"
exit "$status"
