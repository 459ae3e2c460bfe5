#!/usr/bin/env bash
# Renders deploy/kubernetes/ as a user applies it (kubectl kustomize: the base and each overlay) and
# checks what a cluster would otherwise tell first: the base applies without the Prometheus Operator's
# CRDs (no ServiceMonitor), names the image the release workflow pushes for the root pom's version,
# and reserves the memory it may use; the prometheus-operator overlay adds a ServiceMonitor that a
# kube-prometheus-stack Prometheus selects; the segment-mysql overlay takes its password from a Secret
# and commits none. No cluster is needed. One line per check; exits 1 if any fails.
#
#     bash .ci/check-kubernetes.sh              (LEAF_VERSION=1.0.0 to check against another version)
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "[k8s] $*"; }

if ! command -v kubectl >/dev/null; then
    log "kubectl is missing; installing Debian's kubernetes-client"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq && $sudo apt-get install -y -qq kubernetes-client >/dev/null
fi
log "$(kubectl version --client 2>/dev/null | head -n 2 | tr '\n' ' ')"

# The version the base's image tag must carry: the root pom's own <version>, unless given.
version=${LEAF_VERSION:-$(python3 -c '
import xml.etree.ElementTree as ET
ns = "{http://maven.apache.org/POM/4.0.0}"
print(ET.parse("pom.xml").getroot().find(ns + "version").text.strip())')}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
for target in kubernetes overlays/prometheus-operator overlays/segment-mysql; do
    name=${target##*/}
    if kubectl kustomize "deploy/$target" >"$out/$name.yaml" 2>"$out/$name.err"; then
        log "ok   kubectl kustomize deploy/$target renders"
    else
        log "FAIL kubectl kustomize deploy/$target: $(head -c 400 "$out/$name.err")"
        # Debian 12's kubernetes-client is kubectl 1.20, whose kustomize (v2) has no Components.
        grep -q 'unknown field "components"' "$out/$name.err" \
            && log "     this kubectl's kustomize is too old for Components: kubectl 1.21 or later is needed"
        failed=1
        rm -f "$out/$name.yaml"
    fi
done

python3 - "$out" "$version" <<'EOF' || failed=1
"""The checks, on kustomize's rendered output: block style, one key per line, list items at their
parent key's indent or deeper. Read with a few lines of text handling rather than a YAML library,
which the machine's Python may not have."""
import os
import re
import sys

out, version = sys.argv[1], sys.argv[2]
failed = False


def check(ok, what, detail=""):
    global failed
    failed |= not ok
    print(f"[k8s] {'ok  ' if ok else 'FAIL'} {what}{'' if ok else ': ' + detail}", flush=True)


def rendered(name):
    path = os.path.join(out, name + ".yaml")
    if not os.path.exists(path):
        return None  # did not render; already reported
    return [d for d in re.split(r"(?m)^---\n", open(path).read()) if d.strip()]


def kind(document):
    found = re.search(r"(?m)^kind: (\S+)$", document)
    return found.group(1) if found else None


def indent(line):
    return len(line) - len(line.lstrip(" "))


def block(lines, key):
    """The lines under the first line `key:` (or `- key:`) of `lines`."""
    for i, line in enumerate(lines):
        if re.fullmatch(r"\s*(- )?" + re.escape(key) + ":", line):
            # A list item "- x:" opens its mapping two columns in; its siblings are at that column.
            start = indent(line) + (2 if line.lstrip().startswith("- ") else 0)
            body = []
            for inner in lines[i + 1:]:
                if inner.strip() and (indent(inner) < start or (indent(inner) == start and not inner.lstrip().startswith("- "))):
                    break
                body.append(inner)
            return body
    return []


def value(lines, key):
    for line in lines:
        found = re.fullmatch(r"\s*(- )?" + re.escape(key) + r": (.*)", line)
        if found:
            return found.group(2).strip().strip('"')
    return None


def images(documents):
    return [m for d in documents for m in re.findall(r"(?m)^\s*(?:- )?image: (\S+)$", d)]


def memory(documents):
    """(request, limit) of the memory of every container (not the volume claims' storage requests)."""
    pairs = []
    for d in documents:
        if kind(d) != "StatefulSet":
            continue
        containers = block(d.split("\n"), "containers")
        for i, line in enumerate(containers):
            if re.fullmatch(r"\s*(- )?resources:", line):
                resources = block(containers[i:], "resources")
                pairs.append((value(block(resources, "requests"), "memory"), value(block(resources, "limits"), "memory")))
    return pairs


wanted_image = f"ghcr.io/leafid/leaf-server:{version}"

base = rendered("kubernetes")
if base is not None:
    kinds = [kind(d) for d in base]
    check("ServiceMonitor" not in kinds, "base: no ServiceMonitor (it needs the Prometheus Operator's CRD)",
          f"kinds {kinds}")
    check(images(base) == [wanted_image], f"base: the image is {wanted_image} (the root pom's version)",
          f"images {images(base)}")
    pairs = memory(base)
    check(bool(pairs) and all(r is not None and r == l for r, l in pairs),
          f"base: memory request equals the limit {pairs}", f"(request, limit) {pairs}")

monitor = rendered("prometheus-operator")
if monitor is not None:
    monitors = [d for d in monitor if kind(d) == "ServiceMonitor"]
    release = value(block(block(monitors[0].split("\n"), "metadata"), "labels"), "release") if monitors else None
    check(len(monitors) == 1 and bool(release),
          f"prometheus-operator: a ServiceMonitor labelled release: {release}",
          f"{len(monitors)} ServiceMonitors, release label {release!r}")
    check(images(monitor) == [wanted_image], f"prometheus-operator: the image is {wanted_image}",
          f"images {images(monitor)}")

segment = rendered("segment-mysql")
if segment is not None:
    kinds = [kind(d) for d in segment]
    config = "\n".join(d for d in segment if kind(d) == "ConfigMap")
    env = "\n".join(d for d in segment if kind(d) == "StatefulSet").split("\n")
    # The variable's item: from its "- name:" line to the next item of the env list.
    start = next((i for i, l in enumerate(env) if l.strip() == "- name: LEAF_JDBC_PASSWORD"), None)
    item = []
    if start is not None:
        for l in env[start + 1:]:
            if indent(l) <= indent(env[start]):
                break
            item.append(l.strip())
    check("leaf.segment.enable=true" in config and "leaf.jdbc.url=jdbc:" in config,
          "segment-mysql: leaf.properties has segment mode on and a leaf.jdbc.url", "ConfigMap unchanged")
    check("secretKeyRef:" in item and "name: leaf-db" in item and "key: password" in item,
          "segment-mysql: LEAF_JDBC_PASSWORD from the Secret leaf-db, key password", f"env item {item}")
    check("Secret" not in kinds, "segment-mysql: no Secret in the manifests", f"kinds {kinds}")

sys.exit(1 if failed else 0)
EOF

exit "$failed"
