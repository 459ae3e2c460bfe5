#!/usr/bin/env bash
# docs/embedding.md followed as a new user follows it, in a new directory outside the work tree:
# the page's install command (the library modules and leaf-bom into the local Maven repository),
# its pom.xml (Spring Boot's parent, leaf-bom imported, the starter and leaf-jdbc), its two classes,
# its application.properties, its SQL in a database of the local MariaDB, `mvn package`, and the
# jar started: it must print "order number N, event id M" and exit 0. Every file comes from the
# page's fenced blocks, byte for byte; only the properties' database is pointed at the local one
# (root, no password), as EmbeddingExampleTest does.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log() { echo "[embedding] $*"; }
fail() { echo "[embedding] FAIL: $*" >&2; exit 1; }
page="$root/docs/embedding.md"
database=leaf_embedding_ci
MYSQL=(mysql --protocol=tcp -h 127.0.0.1 -P 3306 -u root)

work="$(mktemp -d)"
trap 'rm -rf "$work"; "${MYSQL[@]}" -e "DROP DATABASE IF EXISTS $database" 2>/dev/null || true' EXIT

# The page's fenced blocks of one language, each to a file of its own: $work/blocks/<language>.<n>.
python3 - "$page" "$work/blocks" <<'PY'
import os, re, sys
page, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
counts = {}
for language, body in re.findall(r"^```(\w+)\n(.*?)^```$", open(page, encoding="utf-8").read(), re.S | re.M):
    counts[language] = counts.get(language, 0) + 1
    with open(os.path.join(out, "%s.%d" % (language, counts[language])), "w", encoding="utf-8") as f:
        f.write(body)
PY
[ "$(ls "$work"/blocks/sh.* | wc -l)" -eq 1 ] || fail "the page should have one sh block (the install command)"
[ "$(ls "$work"/blocks/xml.* | wc -l)" -eq 1 ] || fail "the page should have one xml block (the pom.xml)"

# 1. The install command, run where the page runs it: the repository's root.
install="$(grep -v '^#' "$work/blocks/sh.1" | sed '/^$/d')"
[ "$install" = "./mvnw -q -Dmaven.test.skip=true -pl leaf-bom,leaf-spring-boot-starter -am install" ] \
    || fail "the install command changed: update this script ($install)"
(cd "$root" && ./mvnw -B -q -Dstyle.color=never -Dmaven.test.skip=true -pl leaf-bom,leaf-spring-boot-starter -am install)
log "installed the library modules and leaf-bom as the page says"

# 2. The project: pom.xml, the classes, the properties.
app="$work/orders"
mkdir -p "$app/src/main/resources"
cp "$work/blocks/xml.1" "$app/pom.xml"
for block in "$work"/blocks/java.*; do
    package="$(sed -n 's/^package \([a-z0-9.]*\);$/\1/p' "$block")"
    class="$(sed -n 's/^public class \([A-Za-z0-9]*\) .*/\1/p' "$block")"
    [ -n "$package" ] && [ -n "$class" ] || fail "a java block of the page has no package or public class"
    mkdir -p "$app/src/main/java/${package//.//}"
    cp "$block" "$app/src/main/java/${package//.//}/$class.java"
done
cp "$work/blocks/properties.1" "$app/src/main/resources/application.properties"

# 3. The database: leaf_alloc as sql/leaf_alloc.sql creates it, and the page's row.
"${MYSQL[@]}" -e "DROP DATABASE IF EXISTS $database; CREATE DATABASE $database"
"${MYSQL[@]}" "$database" < "$root/sql/leaf_alloc.sql"
"${MYSQL[@]}" "$database" < "$work/blocks/sql.1"

# 4. Built with Maven and started: one line of IDs, then the exit.
(cd "$app" && mvn -B -q -Dstyle.color=never -DskipTests package) || fail "mvn package of the page's project failed"
jar="$app/target/orders-1.0.jar"
[ -f "$jar" ] || fail "mvn package made no $jar"
output="$(cd "$app" && timeout 120 java -Xmx256m -jar "$jar" \
    --leaf.jdbc.url="jdbc:mysql://127.0.0.1:3306/$database" --leaf.jdbc.username=root --leaf.jdbc.password= 2>&1)" \
    || { echo "$output" | tail -n 30 >&2; fail "the application did not start and exit 0"; }
line="$(grep -E '^order number [0-9]+, event id [0-9]+$' <<< "$output")" \
    || { echo "$output" | tail -n 30 >&2; fail "the application printed no \"order number N, event id M\" line"; }
[ "${line#order number 1,}" != "$line" ] || fail "the first order number should be 1: $line"
log "the page's application, built in a new project that imports leaf-bom, printed: $line"
