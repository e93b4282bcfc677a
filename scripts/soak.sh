#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Soak and integrity runs against `pubnub-harness serve` (release build) on 127.0.0.1.
#   scripts/soak.sh [MINUTES]                  mixed traffic for MINUTES (default 5) while the server's
#                                              RSS and descriptors are sampled; fails on >20 % RSS growth
#                                              after warm-up or descriptors not back at baseline
#   scripts/soak.sh --integrity P M [--messages K] [--seconds S]
#                                              P publishers x M subscribers, K numbered messages each
#                                              (default 100); fails on any lost, duplicated or
#                                              reordered message; --seconds bounds the run (default 120)
#   scripts/soak.sh --seconds S                 a soak of S seconds instead of MINUTES
# Options: --debug uses the debug build (quicker to build, for CI); --keep-samples FILE writes the
# RSS/descriptor samples as CSV. The load generator is scripts/soak.py (Python 3 standard library).
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=soak
MINUTES=5
CONFIG=release
MESSAGES=100
SECONDS_LIMIT=""
SAMPLES=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --integrity) MODE=integrity; PUBLISHERS="$2"; SUBSCRIBERS="$3"; shift 3 ;;
        --messages) MESSAGES="$2"; shift 2 ;;
        --seconds) SECONDS_LIMIT="$2"; shift 2 ;;
        --debug) CONFIG=debug; shift ;;
        --keep-samples) SAMPLES="$2"; shift 2 ;;
        [0-9]*) MINUTES="$1"; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[[ "$MINUTES" =~ ^[0-9]+$ && "$MINUTES" -ge 1 && "$MINUTES" -le 240 ]] || { echo "MINUTES must be 1-240" >&2; exit 2; }
[[ -z "$SECONDS_LIMIT" || "$SECONDS_LIMIT" =~ ^[1-9][0-9]*$ ]] || { echo "--seconds must be a positive number" >&2; exit 2; }

swift build -c "$CONFIG" --product pubnub-harness >/dev/null
BIN="$(swift build -c "$CONFIG" --show-bin-path)/pubnub-harness"

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# Long-polls answer empty after 5 s, so idle subscribers cycle through the park/answer path.
"$BIN" serve --host 127.0.0.1 --port 0 --quiet --long-poll-timeout 5 \
    --keyset sub-c-soak-pam:pub-c-soak-pam:sec-c-soak-pam >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 200); do
    PORT=$(sed -n 's|^listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$WORK/serve.out" | head -1)
    [[ -n "$PORT" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "soak: the server did not start:" >&2; cat "$WORK/serve.err" >&2; exit 1; }
    sleep 0.05
done
[[ -n "$PORT" ]] || { echo "soak: the server printed no port" >&2; exit 1; }
echo "soak: pubnub-harness serve ($CONFIG) pid $SERVER_PID on 127.0.0.1:$PORT"

status=0
if [[ "$MODE" == integrity ]]; then
    python3 scripts/soak.py integrity --port "$PORT" --publishers "$PUBLISHERS" --subscribers "$SUBSCRIBERS" \
        --messages "$MESSAGES" --seconds "${SECONDS_LIMIT:-120}" || status=$?
else
    args=(--port "$PORT" --pid "$SERVER_PID" --seconds "${SECONDS_LIMIT:-$((MINUTES * 60))}")
    [[ -n "$SAMPLES" ]] && args+=(--samples-out "$SAMPLES")
    python3 scripts/soak.py soak "${args[@]}" || status=$?
fi
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "soak: FAIL the server exited during the run:" >&2
    tail -5 "$WORK/serve.err" >&2
    status=1
fi
exit $status
