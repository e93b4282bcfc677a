#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmarks the mock server against nginx on loopback.
#   1. keep-alive requests/s with `wrk -t2 -c64 -d10s`: nginx returning a fixed publish body,
#      then our server answering a publish GET (pubnub-harness serve if it exists, and the
#      transport core alone through `harness-bench serve-core`).
#   2. 10,000 parked subscribe long-polls: server RSS, then the time until all are answered
#      after one publish (harness-bench longpoll).
# Usage: scripts/bench-server.sh [--connections N] [--duration 10s]
set -euo pipefail

cd "$(dirname "$0")/.."
CONNECTIONS=10000
DURATION=10s
while [[ $# -gt 0 ]]; do
    case "$1" in
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

need_install=()
command -v wrk >/dev/null || need_install+=(wrk)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need_install+=(nginx-light)
if [[ ${#need_install[@]} -gt 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_install[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

swift build -c release --product harness-bench >/dev/null
swift build -c release --product pubnub-harness >/dev/null
BIN=$(swift build -c release --show-bin-path)

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    [[ -f "$WORK/nginx.pid" ]] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Waits until something accepts connections on 127.0.0.1:$1 (bounded: 10 s).
wait_port() {
    for _ in $(seq 1 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.05
    done
    echo "nothing listens on port $1" >&2
    return 1
}

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
NGINX_RPS=$(wrk -t2 -c64 -d"$DURATION" "http://127.0.0.1:$NGINX_PORT$PUBLISH_PATH" | requests_per_second)
kill "$(cat "$WORK/nginx.pid")"
echo "nginx fixed 200:                 $NGINX_RPS requests/s"

# (b) pubnub-harness serve (the PubNub service), when it exists.
SERVE_RPS="server command unavailable"
if [[ -x "$BIN/pubnub-harness" ]] && "$BIN/pubnub-harness" --help 2>/dev/null | grep -qw serve; then
    SERVE_PORT=$(free_port)
    # --quiet: request logging (one line per request) is a debugging aid, not part of the service.
    "$BIN/pubnub-harness" serve --quiet --port "$SERVE_PORT" >"$WORK/serve.log" 2>&1 &
    SERVE_PID=$!
    PIDS+=("$SERVE_PID")
    if wait_port "$SERVE_PORT"; then
        SERVE_VALUE=$(wrk -t2 -c64 -d"$DURATION" "http://127.0.0.1:$SERVE_PORT$PUBLISH_PATH" | requests_per_second)
        SERVE_RPS="$SERVE_VALUE requests/s ($(awk -v a="$SERVE_VALUE" -v b="$NGINX_RPS" 'BEGIN {printf "%.2f", a / b}') x nginx)"
    fi
fi
echo "pubnub-harness serve publish:    $SERVE_RPS"

# (c) the transport core alone with the minimal bench handler.
CORE_PORT=$(free_port)
"$BIN/harness-bench" serve-core --port "$CORE_PORT" >"$WORK/core.log" 2>&1 &
CORE_PID=$!
PIDS+=("$CORE_PID")
wait_port "$CORE_PORT"
CORE_RPS=$(wrk -t2 -c64 -d"$DURATION" "http://127.0.0.1:$CORE_PORT$PUBLISH_PATH" | requests_per_second)
echo "harness-bench serve-core publish: $CORE_RPS requests/s ($(awk -v a="$CORE_RPS" -v b="$NGINX_RPS" 'BEGIN {printf "%.2f", a / b}') x nginx)"

# Long-polls: against pubnub-harness serve when it runs, and against the core bench handler.
if [[ "$SERVE_RPS" != "server command unavailable" ]]; then
    echo "--- $CONNECTIONS long-polls against pubnub-harness serve"
    "$BIN/harness-bench" longpoll --connections "$CONNECTIONS" --url "http://127.0.0.1:$SERVE_PORT" --pid "$SERVE_PID"
fi
echo "--- $CONNECTIONS long-polls against harness-bench serve-core"
"$BIN/harness-bench" longpoll --connections "$CONNECTIONS" --url "http://127.0.0.1:$CORE_PORT" --pid "$CORE_PID"
