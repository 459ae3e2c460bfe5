#!/usr/bin/env bash
# Stages a release: builds every published module with the release profile and deploys what Maven
# Central needs into a file repository DIR, then checks that it is all there. The release workflow
# (.github/workflows/release.yml) uploads DIR's tree; .ci/run stages into a scratch directory on
# every run, so a release cannot find a missing artifact late.
#
#   ops/stage-release.sh DIR
#
# What DIR must hold, all of one version (the root pom's):
#   - leaf-parent and leaf-bom: their poms;
#   - leaf-core, leaf-client, leaf-jdbc, leaf-zookeeper, leaf-redis, leaf-spring-boot-starter and
#     leaf-server: pom, jar, -sources.jar and -javadoc.jar;
#   - leaf-server: its CycloneDX SBOM, -cyclonedx.json, and the server as one archive,
#     leaf-server-<version>.tar.gz and .zip (the jar, lib/, leaf.properties.example, the start script);
#   - a .sha1 and .md5 beside each file, and, when MAVEN_GPG_KEY is set (an ASCII-armoured private
#     key; MAVEN_GPG_PASSPHRASE its passphrase), a .asc signature beside each.
# Not published: leaf-test-support, leaf-embedding-test, leaf-bench.
# DIR must not exist or be empty: a stale file from an earlier run would pass for a new one.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fail() { echo "stage-release.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || fail "usage: ops/stage-release.sh DIR"
if [ -e "$1" ] && [ -n "$(ls -A "$1")" ]; then
    fail "$1 is not empty: give a new or empty directory"
fi
mkdir -p "$1"
dir="$(cd "$1" && pwd)"

cd "$root"
version="$(python3 -c 'import xml.etree.ElementTree as t; print(t.parse("pom.xml").getroot().findtext("{http://maven.apache.org/POM/4.0.0}version"))')"
[ -n "$version" ] || fail "could not read the version of pom.xml"
case "$version" in *-SNAPSHOT) fail "pom.xml is at $version: a release has no -SNAPSHOT version";; esac
echo "stage-release.sh: staging $version into $dir"

# Tests are not run here: .ci/run runs them all before it stages. `id::default::url` is accepted by
# every maven-deploy-plugin (leaf-bom has no parent and so gets Maven's default one).
./mvnw -B -q -Prelease -Dmaven.test.skip=true deploy -DaltDeploymentRepository="staging::default::file://$dir"

missing=()
need() { [ -s "$dir/$1" ] || missing+=("$1"); }
base="$dir/org/leafid"
for module in leaf-parent leaf-bom; do
    need "org/leafid/$module/$version/$module-$version.pom"
done
for module in leaf-core leaf-client leaf-jdbc leaf-zookeeper leaf-redis leaf-spring-boot-starter leaf-server; do
    for suffix in .pom .jar -sources.jar -javadoc.jar; do
        need "org/leafid/$module/$version/$module-$version$suffix"
    done
done
need "org/leafid/leaf-server/$version/leaf-server-$version-cyclonedx.json"
need "org/leafid/leaf-server/$version/leaf-server-$version.tar.gz"
need "org/leafid/leaf-server/$version/leaf-server-$version.zip"
for module in leaf-test-support leaf-embedding-test leaf-bench; do
    [ ! -e "$base/$module" ] || fail "$module is staged, but it is not published"
done
# Every staged artifact: its checksums, its signature when signing, and the one version.
while IFS= read -r file; do
    rel="${file#"$dir"/}"
    case "$rel" in */maven-metadata.xml) continue;; esac
    [ "$(basename "$(dirname "$file")")" = "$version" ] || fail "$rel is not of version $version"
    need "$rel.sha1"
    need "$rel.md5"
    [ -z "${MAVEN_GPG_KEY:-}" ] || need "$rel.asc"
done < <(find "$base" -type f \( -name '*.jar' -o -name '*.pom' -o -name '*.json' -o -name '*.tar.gz' -o -name '*.zip' \) | sort)

if [ ${#missing[@]} -gt 0 ]; then
    printf 'stage-release.sh: missing from the staged release: %s\n' "${missing[@]}" >&2
    exit 1
fi
echo "stage-release.sh: staged $version ($( [ -n "${MAVEN_GPG_KEY:-}" ] && echo signed || echo unsigned)):"
(cd "$dir" && find org -type f \( -name '*.jar' -o -name '*.pom' -o -name '*.json' -o -name '*.tar.gz' -o -name '*.zip' \) | sort | sed 's/^/  /')
