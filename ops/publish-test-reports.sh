#!/usr/bin/env bash
# Copies what the last test run wrote under leaf-server/target/reports/ into the repository, for
# publishing with a commit:
#   RELIABILITY.md     -> RELIABILITY.md       (the fault suite, after a run of all its scenarios)
#   status-page.png    -> docs/status-page.png (StatusPageBrowserTest, the screenshot of docs/operations.md)
#   openapi.json       -> docs/openapi.json    (OpenApiTest: the HTTP API's OpenAPI description, as the site links it)
# Tests never write into the source tree themselves, so a test run leaves the work tree clean.
# Run the tests first, e.g. `./mvnw -B verify -Pfault-suite` (the full fault suite writes RELIABILITY.md); then this script; then review and commit.
set -euo pipefail
cd "$(dirname "$0")/.."

reports=leaf-server/target/reports
copied=0
publish() {
    local from="$reports/$1" to="$2" producer="$3"
    if [ -f "$from" ]; then
        mkdir -p "$(dirname "$to")"
        cp "$from" "$to"
        echo "published $from -> $to"
        copied=$((copied + 1))
    else
        echo "not published: $from is missing (it comes from $producer)" >&2
    fi
}

publish RELIABILITY.md RELIABILITY.md "a full run of the fault suite, ReliabilityFaultIT"
publish status-page.png docs/status-page.png "StatusPageBrowserTest"
publish openapi.json docs/openapi.json "OpenApiTest (the HTTP API's OpenAPI description, linked by the site)"

if [ "$copied" -eq 0 ]; then
    echo "nothing to publish: run the tests first (./mvnw -B verify -Pfault-suite)" >&2
    exit 1
fi
git status --short -- RELIABILITY.md docs/status-page.png
