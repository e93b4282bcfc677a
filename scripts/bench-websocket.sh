#!/usr/bin/env bash
# Idle WebSocket connections: server RSS per connection (docs/websocket.md).
#   scripts/bench-websocket.sh [--connections 10000] [--debug] [--tls] [--tls-records own|openssl] [--bin DIR]
#   --tls-records: who carries TLS records after the handshake (the server's default when omitted;
#              builds before the option existed accept no value here).
#   --bin DIR: use the harness-bench already built in DIR (e.g. another checkout's .build/release)
#              instead of building it here, to compare two builds in one sitting.
set -euo pipefail
cd "$(dirname "$0")/.."
connections=10000
configuration=release
tls=()
records=()
bin=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --connections) connections="$2"; shift 2 ;;
        --debug) configuration=debug; shift ;;
        --tls) tls=(--tls); shift ;;
        --tls-records) records=(--tls-records "$2"); shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        *) echo "usage: $0 [--connections N] [--debug] [--tls] [--tls-records own|openssl] [--bin DIR]" >&2; exit 2 ;;
    esac
done
if [[ -n "$bin" ]]; then
    bench="$bin/harness-bench"
    [[ -x "$bench" ]] || { echo "bench-websocket: no harness-bench in $bin" >&2; exit 2; }
else
    swift build -c "$configuration" --product harness-bench >/dev/null
    bench=".build/$configuration/harness-bench"
fi
log=$(mktemp)
"$bench" ws-serve --port 0 "${records[@]}" >"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
line=$(grep "listening on" "$log")
port=$(sed -E 's/.*:([0-9]+) pid.*/\1/' <<<"$line")
[[ ${#tls[@]} -eq 0 ]] || port=$(sed -E 's/.* tls ([0-9]+).*/\1/' <<<"$line")
pid=$(sed -E 's/.*pid ([0-9]+).*/\1/' <<<"$line")
ulimit -n "$(ulimit -Hn)"
echo "machine: nproc=$(nproc) load=\"$(cut -d' ' -f1-3 /proc/loadavg)\" bench=$bench"
"$bench" ws-idle --port "$port" --connections "$connections" --pid "$pid" "${tls[@]}"
