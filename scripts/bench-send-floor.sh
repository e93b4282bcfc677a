#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The server's fan-outs against the floor of "one send per connection", measured in the same
# sitting, in interleaved rounds (docs/performance.md, "The kernel's part: measured floors"):
#   1. the Pusher fan-out (scripts/bench-pusher.sh: N WebSockets, one trigger): last frame, server
#      CPU per frame;
#   2. harness-bench send-floor with the Pusher frame's size: sender CPU per send, last byte;
#   3. the long-poll fan-out on a fresh `pubnub-harness serve` (harness-bench longpoll, as in
#      scripts/bench-server.sh): last answer, server CPU per answer;
#   4. harness-bench send-floor --longpoll (the long-poll answer's size);
#   5. harness-bench send-floor --uring 256: the Pusher frame's sends through io_uring, 256 per
#      io_uring_enter (what batching the system calls saves).
# The floor's reader is another process blocked in epoll_wait, as the benches' clients are, so the
# loopback receive path and the reader's wake-up are charged to the sender, as they are to the server.
#
#   scripts/bench-send-floor.sh [--rounds 3] [--connections 10000] [--bin DIR] [--floor-bin DIR]
#   --bin DIR: the pubnub-harness and harness-bench whose fan-outs are measured (default: this
#              checkout's release build); --floor-bin DIR: the harness-bench with `send-floor`
#              (default: this checkout's release build).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=3
CONNECTIONS=10000
BIN=""
FLOOR_BIN=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) ROUNDS="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --bin) BIN="$2"; shift 2 ;;
        --floor-bin) FLOOR_BIN="$2"; shift 2 ;;
        *) echo "usage: $0 [--rounds N] [--connections N] [--bin DIR] [--floor-bin DIR]" >&2; exit 2 ;;
    esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]?$ ]] || { echo "bench-send-floor: --rounds must be 1-99" >&2; exit 2; }
if [[ -z "$BIN" || -z "$FLOOR_BIN" ]]; then
    swift build -c release --product harness-bench --scratch-path .build-release >/dev/null
    swift build -c release --product pubnub-harness --scratch-path .build-release >/dev/null
    OWN=$(swift build -c release --scratch-path .build-release --show-bin-path)
    BIN=${BIN:-$OWN}
    FLOOR_BIN=${FLOOR_BIN:-$OWN}
fi
[[ -x "$BIN/pubnub-harness" && -x "$BIN/harness-bench" ]] || { echo "bench-send-floor: no pubnub-harness and harness-bench in $BIN" >&2; exit 2; }
[[ -x "$FLOOR_BIN/harness-bench" ]] || { echo "bench-send-floor: no harness-bench in $FLOOR_BIN" >&2; exit 2; }
# Each process (server, client, floor sender, floor reader) holds one descriptor per connection.
ulimit -n "$(ulimit -Hn)"
if (( $(ulimit -n) < CONNECTIONS + 200 )); then
    echo "bench-send-floor: ulimit -n is $(ulimit -n), too low for $CONNECTIONS connections" >&2
    exit 1
fi

# free_port, wait_port
source scripts/lib/ports.sh
WORK=$(mktemp -d)
SERVE_PID=""
trap '[[ -n "$SERVE_PID" ]] && kill "$SERVE_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# The value of NAME=VALUE on the first line matching PATTERN in file $3.
value() { grep -E "$1" "$3" | head -1 | tr ' ' '\n' | sed -nE "s/^$2=([0-9.]+).*/\1/p" | head -1; }

echo "machine: nproc=$(nproc) load=\"$(cut -d' ' -f1-3 /proc/loadavg)\" servers=$BIN floor=$FLOOR_BIN connections=$CONNECTIONS"
for round in $(seq 1 "$ROUNDS"); do
    # 1. The Pusher fan-out.
    scripts/bench-pusher.sh --bin "$BIN" --connections "$CONNECTIONS" >"$WORK/pusher.out"
    pusher_last=$(value '^trigger:' all_ms "$WORK/pusher.out")
    pusher_cpu=$(sed -nE 's/.*schedstat.*\(([0-9.]+) us per frame\).*/\1/p' "$WORK/pusher.out")
    # 2. Its floor.
    "$FLOOR_BIN/harness-bench" send-floor --connections "$CONNECTIONS" --rounds 3 >"$WORK/floor.out"
    floor_last=$(value '^median:' all_ms "$WORK/floor.out")
    floor_cpu=$(value '^median:' sender_cpu_us_per_send "$WORK/floor.out")
    # 3. The long-poll fan-out on a fresh server.
    port=$(free_port)
    "$BIN/pubnub-harness" serve --quiet --port "$port" >/dev/null 2>&1 &
    SERVE_PID=$!
    wait_port "$port"
    "$BIN/harness-bench" longpoll --connections "$CONNECTIONS" --url "http://127.0.0.1:$port" --pid "$SERVE_PID" >"$WORK/longpoll.out"
    kill "$SERVE_PID"
    wait "$SERVE_PID" 2>/dev/null || true
    SERVE_PID=""
    poll_last=$(sed -nE 's/.*last ([0-9.]+) ms after the publish.*/\1/p' "$WORK/longpoll.out")
    poll_cpu=$(sed -nE 's/.*\(([0-9.]+) us per response\).*/\1/p' "$WORK/longpoll.out")
    # 4. Its floor.
    "$FLOOR_BIN/harness-bench" send-floor --connections "$CONNECTIONS" --rounds 3 --longpoll >"$WORK/floor-lp.out"
    floorlp_last=$(value '^median:' all_ms "$WORK/floor-lp.out")
    floorlp_cpu=$(value '^median:' sender_cpu_us_per_send "$WORK/floor-lp.out")
    # 5. The first floor with the system calls batched.
    "$FLOOR_BIN/harness-bench" send-floor --connections "$CONNECTIONS" --rounds 3 --uring 256 >"$WORK/floor-uring.out"
    uring_last=$(value '^median:' all_ms "$WORK/floor-uring.out")
    uring_cpu=$(value '^median:' sender_cpu_us_per_send "$WORK/floor-uring.out")
    syscall=$(value '^send-floor' syscall_ns "$WORK/floor.out")
    echo "round $round (load $(cut -d' ' -f1 /proc/loadavg)): pusher last ${pusher_last} ms, ${pusher_cpu} us/frame" \
        "| floor $(value '^send-floor' bytes "$WORK/floor.out") B: last ${floor_last} ms, ${floor_cpu} us/send" \
        "| long-poll last ${poll_last} ms, ${poll_cpu} us/answer" \
        "| floor $(value '^send-floor' bytes "$WORK/floor-lp.out") B: last ${floorlp_last} ms, ${floorlp_cpu} us/send" \
        "| io_uring floor: last ${uring_last} ms, ${uring_cpu} us/send | syscall ${syscall} ns"
    echo "$pusher_last $pusher_cpu $floor_last $floor_cpu $poll_last $poll_cpu $floorlp_last $floorlp_cpu $uring_last $uring_cpu" >>"$WORK/rounds"
done
col() { awk -v c="$1" '{print $c}' "$WORK/rounds" | median; }
echo "median of $ROUNDS rounds: pusher last $(col 1) ms against the floor's $(col 3) ms;" \
    "server $(col 2) us per frame against a floor of $(col 4) us per send;" \
    "long-poll last $(col 5) ms against $(col 7) ms; server $(col 6) us per answer against $(col 8) us per send;" \
    "io_uring floor $(col 10) us per send, last byte $(col 9) ms"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
