#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# TLS throughput and server CPU per request with the server's own TLS 1.3 record layer against
# OpenSSL's (`serve --tls-records own|openssl`), and optionally another build (e.g. the build
# before the option existed), in interleaved rounds of wrk over https: requests/s and the
# server's CPU time per request from /proc/PID/stat (docs/performance.md, "Memory per idle wss
# connection, round 6").
#
#   scripts/bench-tls-records.sh BINARY [--before BINARY] [--rounds 4] [--duration 5s] [--message-bytes 0]
#
# --message-bytes N: publish an N-byte message per request (a request of about N bytes, so the
# server opens two records of up to 16 KB) instead of GET /time/0 (one small record each way).
set -euo pipefail

[[ $# -ge 1 ]] || { sed -n '3,12p' "$0"; exit 2; }
BINARY=$1
shift
BEFORE=""
ROUNDS=4
DURATION=5s
MESSAGE=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --before) BEFORE="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --message-bytes) MESSAGE="$2"; shift 2 ;;
        *) echo "bench-tls-records: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]?$ ]] || { echo "bench-tls-records: --rounds must be 1-99" >&2; exit 2; }
[[ "$MESSAGE" =~ ^[0-9]+$ && "$MESSAGE" -le 30000 ]] || { echo "bench-tls-records: --message-bytes must be 0-30000" >&2; exit 2; }
for binary in "$BINARY" ${BEFORE:+"$BEFORE"}; do
    [[ -f "$binary" && -x "$binary" ]] || { echo "bench-tls-records: $binary is not an executable file" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "bench-tls-records: needs wrk (apt-get install wrk)" >&2; exit 2; }

source "$(dirname "${BASH_SOURCE[0]}")/lib/ports.sh"
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
NAMES=()
declare -A PID_OF PORT_OF
# Starts `serve` from $2 with extra options $3... under the name $1.
start() {
    local name=$1 binary=$2
    shift 2
    local port tls
    port=$(free_port)
    tls=$(free_port)
    "$binary" serve --quiet --port "$port" --tls-port "$tls" "$@" >/dev/null 2>&1 &
    PIDS+=("$!")
    PID_OF[$name]=$!
    PORT_OF[$name]=$tls
    NAMES+=("$name")
    wait_port "$tls"
}
start own "$BINARY" --tls-records own
start openssl "$BINARY" --tls-records openssl
[[ -z "$BEFORE" ]] || start before "$BEFORE"

if [[ "$MESSAGE" -gt 0 ]]; then
    TARGET="/publish/demo/demo/0/bench-ch/0/%22$(head -c "$MESSAGE" /dev/zero | tr '\0' a)%22?uuid=wrk"
else
    TARGET="/time/0"
fi
TICKS=$(getconf CLK_TCK)
# One wrk run against pid $1 on TLS port $2: "requests/s user-us-per-request system-us-per-request".
measure() {
    local user0 system0 user1 system1 out
    read -r user0 system0 < <(awk '{print $14, $15}' "/proc/$1/stat")
    out=$(wrk -t1 -c16 -d"$DURATION" "https://127.0.0.1:$2$TARGET")
    read -r user1 system1 < <(awk '{print $14, $15}' "/proc/$1/stat")
    grep -q "Non-2xx" <<<"$out" && { echo "bench-tls-records: non-2xx answers:" >&2; echo "$out" >&2; exit 1; }
    awk -v n="$(awk '/requests in/ {print $1}' <<<"$out")" -v rps="$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
        -v u=$((user1 - user0)) -v s=$((system1 - system0)) -v t="$TICKS" \
        'BEGIN {printf "%.0f %.2f %.2f\n", rps, u / t * 1e6 / n, s / t * 1e6 / n}'
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); wrk -t1 -c16 -d$DURATION https $([[ $MESSAGE -gt 0 ]] && echo "publish of $MESSAGE bytes" || echo "GET /time/0"), $ROUNDS interleaved rounds"
results="${TMPDIR:-/tmp}/bench-tls-records.$$"
: >"$results"
for round in $(seq 1 "$ROUNDS"); do
    line="round $round:"
    for name in "${NAMES[@]}"; do
        read -r rps user system < <(measure "${PID_OF[$name]}" "${PORT_OF[$name]}")
        echo "$name $rps $user $system" >>"$results"
        line+=" $name $rps req/s, $user + $system us CPU per request |"
    done
    echo "$line load $(cut -d' ' -f1 /proc/loadavg)"
done
for name in "${NAMES[@]}"; do
    rps=$(awk -v n="$name" '$1 == n {print $2}' "$results" | median)
    user=$(awk -v n="$name" '$1 == n {print $3}' "$results" | median)
    system=$(awk -v n="$name" '$1 == n {print $4}' "$results" | median)
    echo "median $name: $rps req/s, user $user us + system $system us per request"
done
rm -f "$results"
