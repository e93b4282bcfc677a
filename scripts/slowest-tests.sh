#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The slowest tests of a `swift test` log, from swift-testing's closing line per test
# ("✔ Test name() passed after 1.234 seconds." / "✘ Test … failed after …"):
#
#   scripts/slowest-tests.sh LOG [COUNT]
#
# Prints COUNT (default 10) lines, slowest first: seconds, verdict, the test's name. Exit 2 when
# LOG cannot be read; an empty list when the log holds no such line.
set -euo pipefail
log="${1:-}"
count="${2:-10}"
if [ -z "$log" ] || [ ! -r "$log" ]; then
    echo "slowest-tests: cannot read the log '${log}' (usage: scripts/slowest-tests.sh LOG [COUNT])" >&2
    exit 2
fi
case "$count" in ''|*[!0-9]*) echo "slowest-tests: COUNT must be a whole number, got '$count'" >&2; exit 2 ;; esac
# (The run's own closing line, "Test run with N tests … passed after", is no test.)
{ grep -vE 'Test run with [0-9]+ tests' "$log" || true; } \
    | sed -nE 's/^.*Test (.*) (passed|failed) after ([0-9.]+) seconds.*$/\3 \2 \1/p' \
    | sort -k1,1 -g -r \
    | awk -v count="$count" 'NR <= count { printf "%9.3f s  %-6s  ", $1, $2; $1 = ""; $2 = ""; sub(/^  /, ""); print }'
# (awk reads to the end: a `head` here would close the pipe early, and under pipefail the
# writer's SIGPIPE would fail the script, and .ci/run with it.)
