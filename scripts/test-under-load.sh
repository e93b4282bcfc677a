#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Does `swift test` hold on a busy machine? Runs the test suite RUNS times in a row with LOOPS
# busy shell loops beside it (the load of a shared CI runner or a laptop with a browser test
# running), or a fresh clone's `bash .ci/run` under the same load, and reports per run: exit
# status, wall time, the test count line, the pool watch's line (Tests/HarnessTesting/PoolWatch.swift),
# the load average before and after, and the 10 slowest tests.
#
#   scripts/test-under-load.sh [--loops N] [--runs N] [--fresh-clone] [--limit SECONDS] [--out DIR]
#
# --loops (default 12) busy loops, each `timeout --limit` (default 1800 s) so none outlives the
# script; they are killed when it ends. --runs (default 3) runs of `swift test --skip-build` after
# one build made before the load starts. --fresh-clone instead clones HEAD into a temporary
# folder (with ../shared beside it when this checkout has one) and runs its `bash .ci/run` once
# per run under the load, as CI would on a busy machine. Logs and summary.md go to --out (default
# .build/test-under-load). Exit status: 0 when every run passed, 1 when one failed, 2 for a usage
# or setup error.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

loops=12
runs=3
limit=1800
fresh=no
out=".build/test-under-load"
number() { case "$2" in ''|*[!0-9]*) echo "test-under-load: $1 needs a whole number, got '$2'" >&2; exit 2 ;; esac; }
while [ $# -gt 0 ]; do
    case "$1" in
        --loops) [ $# -ge 2 ] || { echo "test-under-load: --loops needs a value" >&2; exit 2; }; number --loops "$2"; loops="$2"; shift 2 ;;
        --runs) [ $# -ge 2 ] || { echo "test-under-load: --runs needs a value" >&2; exit 2; }; number --runs "$2"; runs="$2"; shift 2 ;;
        --limit) [ $# -ge 2 ] || { echo "test-under-load: --limit needs a value" >&2; exit 2; }; number --limit "$2"; limit="$2"; shift 2 ;;
        --out) [ $# -ge 2 ] || { echo "test-under-load: --out needs a value" >&2; exit 2; }; out="$2"; shift 2 ;;
        --fresh-clone) fresh=yes; shift ;;
        -h|--help) sed -n '3,18p' "$0"; exit 0 ;;
        *) echo "test-under-load: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

clone=""
if [ "$fresh" = yes ]; then
    clone="$(mktemp -d "${TMPDIR:-/tmp}/test-under-load.XXXXXX")"
    git clone -q "$root" "$clone/main"
    if [ -d "$root/../shared" ]; then ln -s "$(cd "$root/../shared" && pwd)" "$clone/shared"; fi
else
    echo "test-under-load: building the tests (before the load starts)"
    swift build --build-tests >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; echo "test-under-load: the build failed" >&2; exit 2; }
fi

pids=()
stop_load() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
cleanup() {
    stop_load
    if [ -n "$clone" ]; then rm -rf "$clone"; fi
}
trap cleanup EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }

summary="$out/summary.md"
{
    echo "# \`swift test\` under load"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $loops busy loops, commit $(git -C "$root" rev-parse --short HEAD)$([ "$fresh" = yes ] && echo ', fresh clone, bash .ci/run')"
    echo
    echo "| run | exit | wall | load before → after | tests | pool watch |"
    echo "|---|---|---|---|---|---|"
} >"$summary"

failed=0
for run in $(seq 1 "$runs"); do
    for _ in $(seq 1 "$loops"); do
        timeout "$limit" sh -c 'while :; do :; done' &
        pids+=($!)
    done
    before="$(load)"
    log="$out/run-$run.log"
    started=$(date +%s)
    set +e
    if [ "$fresh" = yes ]; then
        (cd "$clone/main" && bash .ci/run) >"$log" 2>&1
    else
        swift test --skip-build >"$log" 2>&1
    fi
    rc=$?
    set -e
    wall=$(( $(date +%s) - started ))
    after="$(load)"
    stop_load
    tests="$(grep -E 'Test run with [0-9]+ tests' "$log" | tail -1 | sed -E 's/^[^A-Za-z]*//; s/\.$//')"
    watch="$(grep -E '^pool watch: ' "$log" | head -1)"
    [ "$rc" -eq 0 ] || failed=1
    echo "test-under-load: run $run: exit $rc in $wall s, load $before -> $after; ${tests:-no test count}; ${watch:-no pool watch line}"
    echo "| $run | $rc | $wall s | $before → $after | ${tests:-—} | ${watch#pool watch: } |" >>"$summary"
    {
        echo
        echo "Run $run, the 10 slowest tests:"
        echo
        echo '```'
        scripts/slowest-tests.sh "$log" 10 || true
        echo '```'
    } >>"$out/slowest.md"
    if [ "$rc" -ne 0 ]; then
        echo "test-under-load: run $run failed; its failures:"
        grep -E '✘|error:|FAILED' "$log" | head -20 || true
    fi
done
cat "$out/slowest.md" >>"$summary"
rm -f "$out/slowest.md"
echo "test-under-load: summary in $summary"
exit "$failed"
