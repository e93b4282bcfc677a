#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The browser path, proven without any SDK: starts `pubnub-harness serve` on a free loopback
# port, then runs the project's own pages in headless Chromium from another origin
# (Drivers/javascript/page-check.mjs):
#   Fixtures/browser/cors-check.html   every service called cross-origin (simple GETs, preflighted
#                                      POST/PATCH/DELETE, multipart upload, 307 download, ETag)
#   Fixtures/browser/webapp-example.html  the recipe of docs/recipes.md (a web app's end-to-end
#                                      test: faults installed from the test, the journal read back)
# and, as a control, cors-check.html against `serve --no-cors`, which must fail (a browser refuses
# those answers), so a check that cannot fail is caught.
#
#   scripts/check-browser-cors.sh [--bin PATH]
#
# --bin defaults to $(swift build --show-bin-path)/pubnub-harness. Exit 0 when every check passed;
# else non-zero with the failing checks.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bin) BIN="$2"; shift 2 ;;
        -h|--help) sed -n 3,17p "$0"; exit 0 ;;
        *) echo "check-browser-cors: unknown argument $1" >&2; exit 2 ;;
    esac
done
[[ -n "$BIN" ]] || BIN="$(cd "$ROOT" && swift build --show-bin-path 2>/dev/null)/pubnub-harness"
[[ -x "$BIN" ]] || { echo "check-browser-cors: no harness binary at $BIN (build it or pass --bin)"; exit 2; }
command -v node >/dev/null || { echo "check-browser-cors: node is not installed"; exit 2; }
command -v "${CHROMIUM:-chromium}" >/dev/null || { echo "check-browser-cors: chromium is not installed"; exit 2; }

WORK=$(mktemp -d /tmp/check-browser-cors.XXXXXX)
SERVER_PID=""
stop_server() {
    if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; SERVER_PID=""; fi
}
trap 'stop_server; rm -rf "$WORK"' EXIT

# Starts serve with the given flags and sets ORIGIN (waits at most 20 s for its "listening" line).
start_server() {
    stop_server
    "$BIN" serve --host 127.0.0.1 --port 0 --quiet "$@" >"$WORK/serve.log" 2>&1 &
    SERVER_PID=$!
    ORIGIN=""
    for _ in $(seq 1 200); do
        ORIGIN=$(sed -n 's/.*listening on \(http:\/\/[0-9.]*:[0-9]*\).*/\1/p' "$WORK/serve.log" | head -n 1)
        [[ -n "$ORIGIN" ]] && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "check-browser-cors: serve did not start:"; cat "$WORK/serve.log"; exit 1
}

page() { # page file, expected exit status
    local file="$1" want="$2" status=0
    (cd "$ROOT" && timeout 180 node Drivers/javascript/page-check.mjs --page "Fixtures/browser/$file" --mock "$ORIGIN") \
        >"$WORK/page.log" 2>&1 || status=$?
    if [[ "$status" != "$want" ]]; then
        cat "$WORK/page.log"
        echo "check-browser-cors: $file against $ORIGIN exited $status, expected $want"
        exit 1
    fi
}

start_server
page cors-check.html 0
grep -E '^(pass|FAIL)|checks passed' "$WORK/page.log"
page webapp-example.html 0
grep -E 'checks passed' "$WORK/page.log"

# The control: without CORS the same page must fail (and its preflighted calls with it).
start_server --no-cors
page cors-check.html 1
echo "check-browser-cors: control (serve --no-cors): $(grep -c '^FAIL' "$WORK/page.log") checks refused, as a browser must"
echo "check-browser-cors: ok"
