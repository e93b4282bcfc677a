#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Slow and idle clients against the connection timeouts, with normal traffic measured meanwhile:
#   1. baseline: /time/0 latency on one keep-alive connection (one request every 5 ms) alone;
#   2. 2,000 connections sending one request-head byte per second plus 100 idle keep-alive
#      connections against `serve --header-timeout 5 --idle-timeout 10`, and the same latency
#      measurement running beside them;
#   3. when the server closed the slow and the idle connections, and the server's counters.
# Usage: scripts/slow-clients.sh [--slow 2000] [--idle 100] [--seconds 20]
set -euo pipefail

cd "$(dirname "$0")/.."
SLOW=2000
IDLE=100
SECONDS_UNDER_LOAD=20
while [[ $# -gt 0 ]]; do
    case "$1" in
        --slow) SLOW="$2"; shift 2 ;;
        --idle) IDLE="$2"; shift 2 ;;
        --seconds) SECONDS_UNDER_LOAD="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

# Every connection is a descriptor on both sides; the server raises its own limit too.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
[[ "$(ulimit -n)" -gt $((SLOW + IDLE + 256)) ]] || { echo "ulimit -n $(ulimit -n) is too low" >&2; exit 1; }

swift build -c release --product harness-bench >/dev/null
swift build -c release --product pubnub-harness >/dev/null
BIN=$(swift build -c release --show-bin-path)

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$BIN/pubnub-harness" serve --port "$PORT" --quiet --header-timeout 5 --idle-timeout 10 >"$WORK/serve.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
    sleep 0.05
done

echo "== baseline (no slow clients), ${SECONDS_UNDER_LOAD} s"
"$BIN/harness-bench" latency --port "$PORT" --seconds "$SECONDS_UNDER_LOAD" --label baseline

echo "== with $SLOW slow and $IDLE idle clients, ${SECONDS_UNDER_LOAD} s"
"$BIN/harness-bench" slowclients --port "$PORT" --slow "$SLOW" --idle "$IDLE" --seconds "$((SECONDS_UNDER_LOAD + 5))" \
    >"$WORK/slow.log" 2>&1 &
SLOW_PID=$!
PIDS+=("$SLOW_PID")
# Start measuring once the slow connections are being opened.
sleep 0.5
"$BIN/harness-bench" latency --port "$PORT" --seconds "$SECONDS_UNDER_LOAD" --label "under load"
wait "$SLOW_PID" || { cat "$WORK/slow.log"; exit 1; }
cat "$WORK/slow.log"
echo "== server counters"
curl -s "http://127.0.0.1:$PORT/__admin/connections"; echo
