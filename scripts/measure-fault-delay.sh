#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures, against a release build of `pubnub-harness serve`:
#   1. the accuracy of `delay` faults: over one keep-alive connection, each round sends a publish
#      and the same publish delayed by a plan rule; error = delayed − undelayed − ms
#      (mean/p50/p99/min/max in ms, per delay);
#   2. "a fault takes effect for the next matching request once its installation call returns":
#      install a plan over PUT /__admin/plans/{key}, and as soon as its answer is read, publish;
#      a publish that is not faulted counts as a miss.
# Usage: scripts/measure-fault-delay.sh [--delays 50,100,250] [--rounds 200] [--install-rounds 1000]
set -euo pipefail

cd "$(dirname "$0")/.."
DELAYS=50,100,250
ROUNDS=200
INSTALL_ROUNDS=1000
while [[ $# -gt 0 ]]; do
    case "$1" in
        --delays) DELAYS="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --install-rounds) INSTALL_ROUNDS="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

swift build -c release --product pubnub-harness >/dev/null
swift build -c release --product harness-bench >/dev/null
BIN=$(swift build -c release --show-bin-path)

LOG=$(mktemp)
"$BIN/pubnub-harness" serve --port 0 --quiet >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -f "$LOG"' EXIT

PORT=""
for _ in $(seq 1 100); do
    PORT=$(sed -n 's|^listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$LOG" | head -n1)
    [[ -n "$PORT" ]] && break
    sleep 0.1
done
[[ -n "$PORT" ]] || { echo "the server did not start:" >&2; cat "$LOG" >&2; exit 1; }

echo "server: $BIN/pubnub-harness serve on port $PORT ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
"$BIN/harness-bench" faultdelay --port "$PORT" --delays "$DELAYS" --rounds "$ROUNDS" --install-rounds "$INSTALL_ROUNDS"
