#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the conformance suites through Drivers/python/pubnub_driver.py for several majors of the
# official PubNub Python SDK and writes a compatibility table (SDK version x suite ->
# passed / non-strict / failed / skipped) as Markdown, and the case x version matrix as HTML
# (`pubnub-harness merge --html`: rows = cases, columns = SDK versions, cells link to each case's
# detail and timeline).
#
#   scripts/sdk-matrix.sh [--cache DIR] [--out PREFIX] [--versions "10.8.0 9.1.0 ..."]
#                         [--concurrency N] [--suite NAME ...]
#
# Each version gets its own venv under the cache dir (default ~/.cache/pubnub-harness/sdk-matrix),
# reused on later runs. 4.x is run with the sync flavour only (its asyncio client predates the
# asyncio API the driver uses). Writes PREFIX.md (scripts/sdk-matrix-table.py) and PREFIX.html
# (pubnub-harness merge; default PREFIX docs/sdk-matrix) and keeps each run's JSON report in the
# cache dir.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${HOME:-/tmp}/.cache/pubnub-harness/sdk-matrix"
out="docs/sdk-matrix"
versions="10.8.0 9.1.0 8.1.0 7.4.4 6.5.1 5.5.0 4.8.1"
concurrency=6
suites=()
while [ $# -gt 0 ]; do
    case "$1" in
        --cache) cache="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --versions) versions="$2"; shift 2 ;;
        --concurrency) concurrency="$2"; shift 2 ;;
        --suite) suites+=(--suite "$2"); shift 2 ;;
        -h|--help) sed -n '3,16p' "$0"; exit 0 ;;
        *) echo "sdk-matrix: unknown option $1" >&2; exit 2 ;;
    esac
done

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
swift build --product pubnub-harness >/dev/null
harness="$(swift build --show-bin-path)/pubnub-harness"
mkdir -p "$cache/results"
driver="$PWD/Drivers/python/pubnub_driver.py"

reports=()
for version in $versions; do
    venv="$cache/venv-$version"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pubnub" 2>/dev/null; then
        echo "sdk-matrix: installing pubnub==$version"
        python3 -m venv "$venv"
        if ! "$venv/bin/pip" install -q "pubnub==$version" >"$cache/install-$version.log" 2>&1; then
            echo "sdk-matrix: pubnub==$version does not install on $(python3 --version) (see $cache/install-$version.log)" >&2
            continue
        fi
    fi
    flavours="sync asyncio"
    case "$version" in 4.*) flavours="sync" ;; esac
    for flavour in $flavours; do
        report="$cache/results/python-$version-$flavour.json"
        echo "sdk-matrix: pubnub $version ($flavour)"
        # Exit status 1 only means that cases failed: that is what the table is for.
        "$harness" run --concurrency "$concurrency" ${suites[@]+"${suites[@]}"} \
            --client-command "$venv/bin/python $driver --flavour $flavour" \
            --client-name "pubnub-python-$version-$flavour" --json "$report" >"$cache/results/python-$version-$flavour.log" 2>&1 || true
        if [ -s "$report" ]; then reports+=("$report"); else echo "sdk-matrix: no report for $version $flavour" >&2; fi
    done
done

python3 scripts/sdk-matrix-table.py --no-html --out "$out" "${reports[@]}"
# Exit status 1 only means that some versions have new failures: that is what the matrix shows.
"$harness" merge "${reports[@]}" --html "$out.html" || [ $? -eq 1 ]
echo "sdk-matrix: wrote $out.md and $out.html"
