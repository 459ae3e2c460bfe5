#!/usr/bin/env bash
# Every Debian package that .ci/run and the scripts it calls use, installed in one apt transaction
# when any is missing: on a new machine one `apt-get update` and one install instead of one of each
# per tool (about a minute less). Each script still checks for its own tools, as it may run alone.
set -euo pipefail

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=()       # installed with their recommends, as the scripts install them
missing_lean=()  # installed without (prometheus's recommends are a node exporter and more)

command_or() { command -v "$1" >/dev/null || missing+=("$2"); }
file_or() { [ -e "$1" ] || missing+=("$2"); }

command_or redis-server redis-server
command_or redis-cli redis-tools
file_or /usr/bin/chromium chromium
file_or /usr/lib/galera/libgalera_smm.so galera-4
command_or rsync rsync
command_or docker-compose docker-compose
command -v promtool >/dev/null || missing_lean+=(prometheus)
command_or python3 python3
command_or mkdocs mkdocs
file_or /usr/share/mkdocs/themes/material mkdocs-material
command_or shellcheck shellcheck
command_or kubectl kubernetes-client
command_or go golang-go
command_or node nodejs
command_or npm npm
/usr/bin/python3 -c 'import build, setuptools' 2>/dev/null || missing+=(python3-build python3-setuptools)

if [ "${#missing[@]}" -eq 0 ] && [ "${#missing_lean[@]}" -eq 0 ]; then
    echo "[packages] every package is here"
    exit 0
fi
echo "[packages] installing: ${missing[*]} ${missing_lean[*]}"
# needrestart would ask about services after each install: nothing here runs under systemd.
apt_get() { $SUDO env DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 apt-get "$@"; }
apt_get update -qq
[ "${#missing[@]}" -eq 0 ] || apt_get install -y -qq "${missing[@]}" >/dev/null
[ "${#missing_lean[@]}" -eq 0 ] || apt_get install -y -qq --no-install-recommends "${missing_lean[@]}" >/dev/null
echo "[packages] installed"
