#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the CI recipes of docs/ci.md: every ```yaml block parses (PyYAML), the GitHub Actions
# workflows have jobs with steps and the GitLab pipelines have jobs with scripts, the at-scale
# recipes shard over a matrix (strategy.matrix / parallel:) and merge in a job that needs them,
# and every `pubnub-harness` command in them names a subcommand and options the binary has
# (read from its --help).
#
#   scripts/check-ci-docs.sh [BINARY]      (default: builds and uses the debug binary)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
bin="${1:-}"
if [ -z "$bin" ]; then
    swift build --product pubnub-harness >/dev/null
    bin="$(swift build --show-bin-path)/pubnub-harness"
fi
python3 - "$bin" docs/ci.md <<'PY'
import re, shlex, subprocess, sys
import yaml

binary, page = sys.argv[1], sys.argv[2]
text = open(page, encoding="utf-8").read()
blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
problems = []
help_cache = {}

def options_of(command):
    if command not in help_cache:
        args = [binary] + ([command] if command else []) + ["--help"]
        out = subprocess.run(args, capture_output=True, text=True).stdout
        help_cache[command] = set(re.findall(r"(--[a-z][a-z0-9-]*)", out))
    return help_cache[command]

subcommands = {"serve", "run", "list", "crypto", "merge"}
top_help = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
for name in subcommands:
    if not re.search(r"^\s+%s\b" % name, top_help, re.M):
        problems.append("the binary has no subcommand %s" % name)

def commands(value):
    """Every string in a parsed YAML document."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from commands(item)
    elif isinstance(value, list):
        for item in value:
            yield from commands(item)

checked = 0
kinds = {"github": 0, "gitlab": 0, "github-matrix": 0, "gitlab-parallel": 0}
for number, block in enumerate(blocks, 1):
    try:
        document = yaml.safe_load(block)
    except yaml.YAMLError as error:
        problems.append("block %d is not valid YAML: %s" % (number, error))
        continue
    if not isinstance(document, dict):
        problems.append("block %d is not a mapping" % number)
        continue
    if "jobs" in document:
        kinds["github"] += 1
        for name, job in document["jobs"].items():
            if not isinstance(job.get("steps"), list) or not job["steps"]:
                problems.append("block %d: GitHub job %s has no steps" % (number, name))
        matrix = [n for n, j in document["jobs"].items() if "matrix" in (j.get("strategy") or {})]
        if matrix:
            kinds["github-matrix"] += 1
            if not any(j.get("needs") in (m, [m]) for m in matrix for j in document["jobs"].values()):
                problems.append("block %d: no job needs the matrix job (the merge)" % number)
    else:
        kinds["gitlab"] += 1
        jobs = {n: j for n, j in document.items() if isinstance(j, dict) and "script" in j}
        if not jobs:
            problems.append("block %d: no GitLab job with a script" % number)
        if any("parallel" in j for j in jobs.values()):
            kinds["gitlab-parallel"] += 1
            if not any("needs" in j or j.get("stage") == "report" for j in jobs.values()):
                problems.append("block %d: no job after the parallel one (the merge)" % number)
    for value in commands(document):
        joined = value.replace("\\\n", " ")
        for match in re.finditer(r"pubnub-harness(?:-\S+)? ([a-z]+)((?:[^\n|&;#]|\|\|)*)", joined):
            command, rest = match.group(1), match.group(2)
            if command not in subcommands:
                continue  # e.g. a path such as pubnub-harness-0.9.0-linux-x86_64
            checked += 1
            try:
                tokens = shlex.split(rest.split("||")[0])
            except ValueError:
                tokens = rest.split()
            for token in tokens:
                if token.startswith("--"):
                    option = token.split("=")[0]
                    if option not in options_of(command):
                        problems.append("block %d: pubnub-harness %s has no option %s" % (number, command, option))
for kind, count in kinds.items():
    if count == 0:
        problems.append("docs/ci.md has no %s recipe" % kind)
for line in problems:
    print("check-ci-docs: " + line)
print("check-ci-docs: %d YAML block(s), %d pubnub-harness command(s) checked; %s" % (len(blocks), checked, "FAIL" if problems else "ok"))
sys.exit(1 if problems else 0)
PY
