#!/usr/bin/env bash
# The release, checked on every CI run (.ci/run calls it after the tests):
#   1. stages it as the release workflow does (ops/stage-release.sh), from a fresh clone of this
#      commit, signed with a throwaway key made here, and verifies every signature;
#   2. compares the staged jars with the ones the test build made in this work tree: two builds of
#      one commit, at different times and in different directories, must give the same bytes.
# Nothing is written into the work tree; the scratch directory goes at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log() { echo "[release] $*"; }
fail() { echo "[release] FAIL: $*" >&2; exit 1; }

scratch="$(mktemp -d)"
trap 'GNUPGHOME="$scratch/gnupg" gpgconf --kill gpg-agent 2>/dev/null || true; rm -rf "$scratch"' EXIT
git clone -q "$root" "$scratch/clone"

# A key that lives only as long as this run: what MAVEN_GPG_KEY holds in the release workflow.
export GNUPGHOME="$scratch/gnupg"
mkdir -m 700 "$GNUPGHOME"
passphrase="ci-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
gpg --batch --quiet --pinentry-mode loopback --passphrase "$passphrase" \
    --quick-gen-key 'Leaf CI throwaway key <ci@leafid.invalid>' ed25519 sign 1d 2>/dev/null
MAVEN_GPG_KEY="$(gpg --batch --pinentry-mode loopback --passphrase "$passphrase" --armor --export-secret-keys)"
export MAVEN_GPG_KEY MAVEN_GPG_PASSPHRASE="$passphrase"

"$scratch/clone/ops/stage-release.sh" "$scratch/staging"
unset MAVEN_GPG_KEY MAVEN_GPG_PASSPHRASE

signatures=0
while IFS= read -r signature; do
    gpg --batch --quiet --verify "$signature" "${signature%.asc}" 2>/dev/null \
        || fail "the signature $signature does not verify"
    signatures=$((signatures + 1))
done < <(find "$scratch/staging" -name '*.asc' ! -name '*.asc.asc')
[ "$signatures" -gt 0 ] || fail "no signature was staged"
log "$signatures signatures verify"

version="$(python3 -c 'import xml.etree.ElementTree as t; print(t.parse("'"$root"'/pom.xml").getroot().findtext("{http://maven.apache.org/POM/4.0.0}version"))')"
compared=0
for module in leaf-core leaf-client leaf-jdbc leaf-zookeeper leaf-redis leaf-spring-boot-starter leaf-server; do
    staged="$scratch/staging/org/leafid/$module/$version/$module-$version.jar"
    built="$root/$module/target/$module-$version.jar"
    [ "$module" != leaf-server ] || built="$root/leaf-server/target/leaf-server.jar"
    [ -f "$built" ] || fail "$built is missing: run the build first"
    cmp -s "$staged" "$built" || fail "$module's jar differs between two builds of one commit ($built, $staged)"
    compared=$((compared + 1))
done
log "two builds of this commit gave byte-identical jars ($compared modules)"
