#!/usr/bin/env bash
# Pusher fan-out: N idle WebSocket connections subscribed to one channel, server RSS, then one signed
# HTTP `events` trigger and the time until every client has it (docs/pusher.md, "Performance").
#   scripts/bench-pusher.sh [--connections 10000] [--debug] [--loops N] [--bin DIR]
#   --bin DIR: use the harness-bench already built in DIR (e.g. another checkout's .build/release)
#              instead of building it here.
set -euo pipefail
cd "$(dirname "$0")/.."
connections=10000
configuration=release
loops=()
bin=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --connections) connections="$2"; shift 2 ;;
        --debug) configuration=debug; shift ;;
        --loops) loops=(--loops "$2"); shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        *) echo "usage: $0 [--connections N] [--debug] [--loops N] [--bin DIR]" >&2; exit 2 ;;
    esac
done
if [[ -n "$bin" ]]; then
    bench="$bin/harness-bench"
    configuration="prebuilt $bin"
    [[ -x "$bench" ]] || { echo "bench-pusher: no harness-bench in $bin" >&2; exit 2; }
else
    swift build -c "$configuration" --product harness-bench >/dev/null
    bench="$(swift build -c "$configuration" --show-bin-path)/harness-bench"
fi
# Every client socket and every server socket is a descriptor (both ends run here).
ulimit -n "$(ulimit -Hn)"
if (( $(ulimit -n) < connections + 200 )); then
    echo "bench-pusher: ulimit -n is $(ulimit -n), too low for $connections connections" >&2
    exit 1
fi
log=$(mktemp)
"$bench" pusher-serve --port 0 "${loops[@]}" >"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
line=$(grep "listening on" "$log")
port=$(sed -E 's/.*:([0-9]+) pid.*/\1/' <<<"$line")
pid=$(sed -E 's/.*pid ([0-9]+).*/\1/' <<<"$line")
echo "machine: nproc=$(nproc) load=\"$(cut -d' ' -f1-3 /proc/loadavg)\" memory=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) build=$configuration"
out=$(mktemp)
trap 'kill "$server" 2>/dev/null || true; rm -f "$log" "$out"' EXIT
"$bench" pusher-fanout --port "$port" --connections "$connections" --pid "$pid" | tee "$out"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# The figures against the performance targets (10,000 connections): last frame < 50 ms after the
# trigger, server CPU < 5 us per frame, RSS < 32 MiB.
awk '
    /^server_rss_kib/ { for (i = 1; i <= NF; i++) if ($i ~ /^after=/) { split($i, a, "="); rss = a[2] / 1024 } }
    /^trigger:/ { for (i = 1; i <= NF; i++) if ($i ~ /^all_ms=/) { split($i, a, "="); last = a[2] } }
    /schedstat/ { for (i = 1; i <= NF; i++) if ($i == "us") cpu = substr($(i - 1), 2) }
    END { printf "targets: last frame %s ms (< 50), server CPU %s us per frame (< 5), RSS %.1f MiB (< 32)\n", last, cpu, rss }
' "$out"
