#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmarks the mock server against nginx on loopback, in one run:
#   1. keep-alive requests/s with `wrk -t2 -c64`: nginx returning a fixed publish body, our server
#      answering a publish GET (pubnub-harness serve), and the transport core alone
#      (`harness-bench serve-core`). The three are measured in interleaved rounds (nginx, serve,
#      core, nginx, ...) so that a noisy neighbour hits all of them alike; each round's ratio uses
#      that round's nginx figure, and the median round is the result.
#   2. 10,000 parked subscribe long-polls, once per round: server RSS, then the time until all are
#      answered after one publish (harness-bench longpoll).
# Usage: scripts/bench-server.sh [--rounds 3] [--duration 5s] [--connections 10000] [--bin DIR]
#   --bin DIR: use the pubnub-harness and harness-bench already built in DIR (e.g. another checkout's
#              .build/release, to compare two builds in one sitting) instead of building them here.
set -euo pipefail

cd "$(dirname "$0")/.."
CONNECTIONS=10000
DURATION=5s
ROUNDS=3
BIN=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --bin) BIN="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]?$ ]] || { echo "--rounds must be 1-99" >&2; exit 2; }

need_install=()
command -v wrk >/dev/null || need_install+=(wrk)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need_install+=(nginx-light)
if [[ ${#need_install[@]} -gt 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_install[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [[ -z "$BIN" ]]; then
    swift build -c release --product harness-bench >/dev/null
    swift build -c release --product pubnub-harness >/dev/null
    BIN=$(swift build -c release --show-bin-path)
fi
[[ -x "$BIN/pubnub-harness" && -x "$BIN/harness-bench" ]] || { echo "no pubnub-harness and harness-bench in $BIN" >&2; exit 2; }
echo "binaries: $BIN"
echo "machine: nproc=$(nproc) load=\"$(cut -d' ' -f1-3 /proc/loadavg)\""

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    [[ -f "$WORK/nginx.pid" ]] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# free_port, wait_port
source scripts/lib/ports.sh

requests_per_second() { awk '/Requests\/sec/ {print $2}'; }

PUBLISH_PATH='/publish/bench/bench/0/bench-ch/0/%22hello%22?uuid=wrk'

# (a) nginx with a fixed 200 response.
NGINX_PORT=$(free_port)
mkdir -p "$WORK/nginx"
cat >"$WORK/nginx.conf" <<CONF
worker_processes 2;
pid $WORK/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx;
    proxy_temp_path $WORK/nginx;
    fastcgi_temp_path $WORK/nginx;
    uwsgi_temp_path $WORK/nginx;
    scgi_temp_path $WORK/nginx;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / {
            default_type 'text/javascript; charset="UTF-8"';
            return 200 '[1,"Sent","17000000000000000"]';
        }
    }
}
CONF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK"
wait_port "$NGINX_PORT"

SERVE_PORT=$(free_port)
# --quiet: request logging (one line per request) is a debugging aid, not part of the service.
"$BIN/pubnub-harness" serve --quiet --port "$SERVE_PORT" >"$WORK/serve.log" 2>&1 &
SERVE_PID=$!
PIDS+=("$SERVE_PID")
wait_port "$SERVE_PORT"

CORE_PORT=$(free_port)
"$BIN/harness-bench" serve-core --port "$CORE_PORT" >"$WORK/core.log" 2>&1 &
CORE_PID=$!
PIDS+=("$CORE_PID")
wait_port "$CORE_PORT"

rps() { wrk -t2 -c64 -d"$DURATION" "http://127.0.0.1:$1$PUBLISH_PATH" | requests_per_second; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "--- keep-alive publish requests/s, wrk -t2 -c64 -d$DURATION, $ROUNDS interleaved rounds"
SERVE_RATIOS=()
CORE_RATIOS=()
for round in $(seq 1 "$ROUNDS"); do
    nginx_rps=$(rps "$NGINX_PORT")
    serve_rps=$(rps "$SERVE_PORT")
    core_rps=$(rps "$CORE_PORT")
    SERVE_RATIOS+=("$(ratio "$serve_rps" "$nginx_rps")")
    CORE_RATIOS+=("$(ratio "$core_rps" "$nginx_rps")")
    printf 'round %d: nginx %.0f | serve %.0f (%s x nginx) | core %.0f (%s x nginx)\n' "$round" \
        "$nginx_rps" "$serve_rps" "${SERVE_RATIOS[-1]}" "$core_rps" "${CORE_RATIOS[-1]}"
done
echo "median: pubnub-harness serve $(printf '%s\n' "${SERVE_RATIOS[@]}" | median) x nginx," \
    "harness-bench serve-core $(printf '%s\n' "${CORE_RATIOS[@]}" | median) x nginx"

# Long-polls: a fresh round of connections each time, against the service and the core.
for target in "pubnub-harness serve:$SERVE_PORT:$SERVE_PID" "harness-bench serve-core:$CORE_PORT:$CORE_PID"; do
    IFS=: read -r name port pid <<<"$target"
    echo "--- $CONNECTIONS long-polls against $name, $ROUNDS rounds"
    LASTS=()
    RSSES=()
    for round in $(seq 1 "$ROUNDS"); do
        "$BIN/harness-bench" longpoll --connections "$CONNECTIONS" --url "http://127.0.0.1:$port" --pid "$pid" \
            | grep -E 'RSS|fan-out' | sed "s/^/round $round: /" | tee "$WORK/longpoll.out"
        LASTS+=("$(sed -nE 's/.*last ([0-9.]+) ms after the publish.*/\1/p' "$WORK/longpoll.out")")
        RSSES+=("$(sed -nE 's/.*long-polls: ([0-9]+) MiB.*/\1/p' "$WORK/longpoll.out")")
    done
    # The performance targets (10,000 long-polls): last answer < 60 ms after the publish, RSS < 48 MiB.
    echo "median of $ROUNDS rounds, $name: last answer $(printf '%s\n' "${LASTS[@]}" | median) ms (< 60)," \
        "RSS $(printf '%s\n' "${RSSES[@]}" | median) MiB (< 48)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
