#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two builds of `pubnub-harness serve` side by side under the same keep-alive publish load, in
# interleaved rounds: requests/s and the server's CPU time per request (user and system, from
# /proc/PID/stat over each wrk run). CPU time per request moves much less with the machine's load
# than requests/s does, so it compares two builds on a busy machine (docs/performance.md).
#
#   scripts/bench-publish-cpu.sh BEFORE AFTER [--rounds 8] [--duration 5s] [--event-loops N] [--core]
#
# --core: BEFORE and AFTER are two `harness-bench` builds, started as `serve-core` (the transport
# core with its minimal publish handler, as scripts/bench-server.sh runs it; --event-loops N is
# its --loops N): the core's CPU per request alone.
set -euo pipefail

[[ $# -ge 2 ]] || { sed -n '3,13p' "$0"; exit 2; }
BEFORE=$1
AFTER=$2
shift 2
ROUNDS=8
DURATION=5s
LOOPS=()
CORE=no
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) ROUNDS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --event-loops) LOOPS=("$2"); shift 2 ;;
        --core) CORE=yes; shift ;;
        *) echo "bench-publish-cpu: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]?$ ]] || { echo "bench-publish-cpu: --rounds must be 1-99" >&2; exit 2; }
for binary in "$BEFORE" "$AFTER"; do
    [[ -f "$binary" && -x "$binary" ]] || { echo "bench-publish-cpu: $binary is not an executable file" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "bench-publish-cpu: needs wrk (apt-get install wrk)" >&2; exit 2; }

# free_port, wait_port
source "$(dirname "${BASH_SOURCE[0]}")/lib/ports.sh"
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
# Starts server binary $1 on port $2 in the background.
start_server() {
    if [[ "$CORE" == yes ]]; then
        "$1" serve-core ${LOOPS[@]+--loops "${LOOPS[@]}"} --port "$2" >/dev/null 2>&1 &
    else
        "$1" serve --quiet ${LOOPS[@]+--event-loops "${LOOPS[@]}"} --port "$2" >/dev/null 2>&1 &
    fi
}
PORT_BEFORE=$(free_port)
start_server "$BEFORE" "$PORT_BEFORE"
PID_BEFORE=$!
PIDS+=("$PID_BEFORE")
PORT_AFTER=$(free_port)
start_server "$AFTER" "$PORT_AFTER"
PID_AFTER=$!
PIDS+=("$PID_AFTER")
wait_port "$PORT_BEFORE"
wait_port "$PORT_AFTER"

TICKS=$(getconf CLK_TCK)
PUBLISH_PATH='/publish/bench/bench/0/bench-ch/0/%22hello%22?uuid=wrk'
# One wrk run against pid $1 on port $2: "requests/s user-us-per-request system-us-per-request".
measure() {
    local user0 system0 user1 system1 out
    read -r user0 system0 < <(awk '{print $14, $15}' "/proc/$1/stat")
    out=$(wrk -t2 -c64 -d"$DURATION" "http://127.0.0.1:$2$PUBLISH_PATH")
    read -r user1 system1 < <(awk '{print $14, $15}' "/proc/$1/stat")
    awk -v n="$(awk '/requests in/ {print $1}' <<<"$out")" -v rps="$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
        -v u=$((user1 - user0)) -v s=$((system1 - system0)) -v t="$TICKS" \
        'BEGIN {printf "%.0f %.2f %.2f\n", rps, u / t * 1e6 / n, s / t * 1e6 / n}'
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); wrk -t2 -c64 -d$DURATION, $ROUNDS interleaved rounds"
: >"${TMPDIR:-/tmp}/bench-publish-cpu.$$"
for round in $(seq 1 "$ROUNDS"); do
    read -r rps_b user_b system_b < <(measure "$PID_BEFORE" "$PORT_BEFORE")
    read -r rps_a user_a system_a < <(measure "$PID_AFTER" "$PORT_AFTER")
    echo "$rps_b $user_b $system_b $rps_a $user_a $system_a" >>"${TMPDIR:-/tmp}/bench-publish-cpu.$$"
    printf 'round %d: before %s req/s, %s + %s us CPU per request | after %s req/s, %s + %s us | load %s\n' \
        "$round" "$rps_b" "$user_b" "$system_b" "$rps_a" "$user_a" "$system_a" "$(cut -d' ' -f1 /proc/loadavg)"
done
results="${TMPDIR:-/tmp}/bench-publish-cpu.$$"
for column in 1 2 3 4 5 6; do declare "m$column=$(awk -v c=$column '{print $c}' "$results" | median)"; done
rm -f "$results"
echo "median before: $m1 req/s, user $m2 us + system $m3 us per request"
echo "median after:  $m4 req/s, user $m5 us + system $m6 us per request"
awk -v a="$m2" -v b="$m5" -v c="$m3" -v d="$m6" \
    'BEGIN {printf "after / before: user %.2f, system %.2f, total %.2f\n", b / a, d / c, (b + d) / (a + c)}'
