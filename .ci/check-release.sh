#!/usr/bin/env bash
# The release, checked on every CI run (.ci/run calls it after the tests, on the build they ran):
#   1. stages it as the release workflow does (ops/stage-release.sh), from this work tree and its
#      build (the release profile adds the sources, javadoc and the server archives; the classes are
#      the ones the tests ran), signed with a throwaway key made here, and verifies every signature;
#   2. builds two modules again in a fresh clone of the commit (leaf-core and leaf-client, which
#      depend on no other module): their jars must be byte for byte the staged ones, so two builds of
#      one commit, at different times and in different directories, give the same bytes;
#   3. unpacks the staged server archive, leaf-server-<version>.tar.gz, starts it with its start
#      script as README.md says, and takes an ID from it; the .zip must hold the same files.
# Only target/ directories of the work tree are written; the scratch directory goes at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log() { echo "[release] $*"; }
fail() { echo "[release] FAIL: $*" >&2; exit 1; }

scratch="$(mktemp -d)"
trap 'GNUPGHOME="$scratch/gnupg" gpgconf --kill gpg-agent 2>/dev/null || true; rm -rf "$scratch"' EXIT

# A key that lives only as long as this run: what MAVEN_GPG_KEY holds in the release workflow.
export GNUPGHOME="$scratch/gnupg"
mkdir -m 700 "$GNUPGHOME"
passphrase="ci-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
gpg --batch --quiet --pinentry-mode loopback --passphrase "$passphrase" \
    --quick-gen-key 'Leaf CI throwaway key <ci@leafid.invalid>' ed25519 sign 1d 2>/dev/null
MAVEN_GPG_KEY="$(gpg --batch --pinentry-mode loopback --passphrase "$passphrase" --armor --export-secret-keys)"
export MAVEN_GPG_KEY MAVEN_GPG_PASSPHRASE="$passphrase"

"$root/ops/stage-release.sh" "$scratch/staging"
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

git clone -q "$root" "$scratch/clone"
(cd "$scratch/clone" && ./mvnw -B -q -o -Dmaven.test.skip=true -pl leaf-core,leaf-client package)
for module in leaf-core leaf-client; do
    cmp -s "$scratch/staging/org/leafid/$module/$version/$module-$version.jar" \
        "$scratch/clone/$module/target/$module-$version.jar" \
        || fail "$module's jar differs between two builds of one commit"
done
log "a second build of this commit in a fresh clone gave byte-identical jars (leaf-core, leaf-client)"
archive="$scratch/staging/org/leafid/leaf-server/$version/leaf-server-$version"
mkdir "$scratch/tar" "$scratch/zip"
tar -xzf "$archive.tar.gz" -C "$scratch/tar"
(cd "$scratch/zip" && python3 -m zipfile -e "$archive.zip" .)
diff <(cd "$scratch/tar" && find . -type f | sort) <(cd "$scratch/zip" && find . -type f | sort) >/dev/null \
    || fail "the .tar.gz and the .zip of the server hold different files"
home="$scratch/tar/leaf-server-$version"
for file in leaf-server.jar leaf.properties.example leaf-server lib; do
    [ -e "$home/$file" ] || fail "the server archive has no $file"
done
[ -x "$home/leaf-server" ] || fail "the start script of the server archive is not executable"
log "the server archives hold leaf-server.jar, lib/ ($(ls "$home/lib" | wc -l) jars), leaf.properties.example and leaf-server"

# Started as README.md says, in the unpacked directory, on the embedded default.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$home/leaf-server" --server.port="$port" --server.address=127.0.0.1 > "$scratch/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; GNUPGHOME="$scratch/gnupg" gpgconf --kill gpg-agent 2>/dev/null || true; rm -rf "$scratch"' EXIT
id=""
for _ in $(seq 1 120); do
    id="$(curl -fsS "http://127.0.0.1:$port/api/segment/get/leaf-segment-test" 2>/dev/null)" && break
    kill -0 "$server" 2>/dev/null || { tail -n 20 "$scratch/server.log" >&2; fail "the unpacked server stopped"; }
    sleep 0.5
done
[ "$id" = 1 ] || { tail -n 20 "$scratch/server.log" >&2; fail "the unpacked server answered '$id' for its first ID, not 1"; }
kill "$server"
wait "$server" 2>/dev/null || true
[ -d "$home/data" ] || fail "the unpacked server kept no ./data beside its jar"
log "the unpacked server started with ./leaf-server and issued its first ID"
