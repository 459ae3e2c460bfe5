#!/usr/bin/env bash
# The documentation site (mkdocs.yml), as .github/workflows/docs.yml publishes it:
#   1. `mkdocs build --strict` into target/site: a broken link, a link to a file the repository
#      lacks, or a page of docs/ left out of the navigation fails it (ops/site/hooks.py);
#   2. the site served on 127.0.0.1 and opened in headless Chromium: a screenshot of the home page
#      and of one reference page (target/site-screenshots/), and their rendered pages must hold the
#      page's title, the navigation and the search box.
# Needs Debian's mkdocs, mkdocs-material and chromium (.ci/run installs them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
log() { echo "[site] $*"; }
fail() { echo "[site] FAIL: $*" >&2; exit 1; }

mkdocs build --strict --quiet
[ -s target/site/index.html ] || fail "mkdocs wrote no target/site/index.html"
log "mkdocs build --strict: $(find target/site -name index.html | wc -l) pages in target/site"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory target/site >/dev/null 2>&1 &
server=$!
profile="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$profile"' EXIT
for _ in $(seq 1 50); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null && break
    sleep 0.1
done

shots=target/site-screenshots
mkdir -p "$shots"
chromium_run() {
    # The flags of a closed network: no background connections, no component updates.
    timeout 60 /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --window-size=1280,900 --virtual-time-budget=3000 "$@" 2>/dev/null
}
# page, file name, a text the rendered page must hold
check_page() {
    local path="$1" name="$2" expected="$3" dom
    chromium_run --screenshot="$root/$shots/$name.png" "http://127.0.0.1:$port/$path" >/dev/null
    [ -s "$shots/$name.png" ] || fail "no screenshot of /$path"
    # A blank page compresses to a few KB; a rendered one with text and navigation is far larger.
    [ "$(stat -c %s "$shots/$name.png")" -gt 40000 ] || fail "the screenshot of /$path is nearly empty ($shots/$name.png)"
    dom="$(chromium_run --dump-dom "http://127.0.0.1:$port/$path")"
    grep -q 'class="md-search__input' <<< "$dom" || fail "/$path has no search box"
    grep -q 'class="md-tabs' <<< "$dom" || fail "/$path has no navigation tabs"
    grep -qF "$expected" <<< "$dom" || fail "/$path does not show \"$expected\""
    log "/$path renders: title, navigation, search box ($shots/$name.png, $(stat -c %s "$shots/$name.png") bytes)"
}
check_page "" home "Leaf is an ID-issuing service"
check_page "configuration/" configuration "leaf.segment.max-step"
