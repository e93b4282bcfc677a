#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions per keep-alive publish, counted by valgrind's callgrind: a figure for regressions
# that wall-clock noise on a shared machine hides (docs/performance.md).
#
#   scripts/bench-instructions.sh [--binary PATH]... [--core] [--fanout N] [--save DIR] [--requests N] [--warmup N] [--repeat R]
#
# Starts `pubnub-harness serve --quiet` (the release build, or each --binary in turn: before and
# after a change in one run) under
# `valgrind --tool=callgrind`, warms it up with --warmup publishes (default 200), then R times
# (default 3): zeroes the counters, opens one keep-alive connection and closes it without a
# request, dumps the counters (the baseline: connection set-up, idle loops); zeroes them, opens
# one keep-alive connection, sends N publishes (default 1000) one after another (each answered
# before the next), closes it, dumps. Prints (total - baseline) / N for every repetition and their
# median. The client (Python, outside valgrind) costs nothing in the count; Swift's per-process
# hash seed is fixed (SWIFT_DETERMINISTIC_HASHING) so the same binary and inputs count alike.
# --core: each --binary is a `harness-bench`, started as `serve-core --loops 1` (the transport core
# with its minimal publish handler, as scripts/bench-server.sh runs it): what the transport alone
# costs per publish, so the rest of `serve`'s count is what lies above it.
# --fanout N: instructions per long-poll answer instead: each repetition parks N subscribe
# long-polls (one connection each, distinct uuids, after a handshake), zeroes the counters, sends
# one publish on a connection of its own, reads all N answers (each must be a 200), dumps (the
# long-polls' connections stay open until then); and as the baseline the same publish with nothing
# parked. Prints (total - baseline) / N: the server's user
# space per answer of a fan-out (the kernel's send is not counted).
# --save DIR: keeps each binary's last dump of N publishes as DIR/callgrind.B.out (B = 1, 2, ...
# in --binary order), for `callgrind_annotate --inclusive=yes`.
set -euo pipefail
cd "$(dirname "$0")/.."

BINARIES=()
REQUESTS=1000
WARMUP=200
REPEAT=3
CORE=no
FANOUT=0
SAVE=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) BINARIES+=("$2"); shift 2 ;;
        --requests) REQUESTS="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --repeat) REPEAT="$2"; shift 2 ;;
        --core) CORE=yes; shift ;;
        --fanout) FANOUT="$2"; shift 2 ;;
        --save) SAVE="$2"; shift 2 ;;
        -h|--help) sed -n '3,26p' "$0"; exit 0 ;;
        *) echo "bench-instructions: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ "$REQUESTS" =~ ^[1-9][0-9]{0,5}$ ]] || { echo "bench-instructions: --requests must be 1-999999" >&2; exit 2; }
[[ "$WARMUP" =~ ^[0-9]{1,6}$ ]] || { echo "bench-instructions: --warmup must be 0-999999" >&2; exit 2; }
[[ "$REPEAT" =~ ^[1-9]$ ]] || { echo "bench-instructions: --repeat must be 1-9" >&2; exit 2; }
[[ "$FANOUT" =~ ^(0|[1-9][0-9]{0,3})$ ]] || { echo "bench-instructions: --fanout must be 1-9999" >&2; exit 2; }
command -v valgrind >/dev/null && command -v callgrind_control >/dev/null \
    || { echo "bench-instructions: needs valgrind (apt-get install valgrind)" >&2; exit 2; }

PRODUCT=pubnub-harness
[[ "$CORE" == yes ]] && PRODUCT=harness-bench
if [[ ${#BINARIES[@]} -eq 0 ]]; then
    if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
    swift build -c release --product "$PRODUCT" >/dev/null
    BINARIES=("$(swift build -c release --show-bin-path)/$PRODUCT")
fi
for binary in "${BINARIES[@]}"; do
    [[ -x "$binary" ]] || { echo "bench-instructions: $binary is not an executable" >&2; exit 2; }
done

WORK=$(mktemp -d)
SERVER_PID=""
stop_server() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT

# The dispatch_main shim valgrind needs (scripts/lib/callgrind.sh).
source scripts/lib/callgrind.sh
build_dispatch_main_shim "${BINARIES[0]}" "$WORK"

# The client: N sequential keep-alive publishes on one connection; each response read whole
# (Content-Length) before the next request. N = 0 opens and closes the connection only.
# Reads one response (Content-Length framing) from a socket: its head, its body, and the bytes
# that came after it.
cat >"$WORK/benchhttp.py" <<'PY'
import sys

def read_response(sock, buffer=b""):
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            sys.exit("connection closed early")
        buffer += chunk
    head, _, buffer = buffer.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(buffer) < length:
        chunk = sock.recv(65536)
        if not chunk:
            sys.exit("connection closed early")
        buffer += chunk
    return head, buffer[:length], buffer[length:]
PY

cat >"$WORK/client.py" <<'PY'
import socket, sys
from benchhttp import read_response
port, count = int(sys.argv[1]), int(sys.argv[2])
request = (b"GET /publish/bench/bench/0/bench-ch/0/%22hello%22?uuid=bench HTTP/1.1\r\n"
           b"Host: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
sock = socket.create_connection(("127.0.0.1", port), timeout=120)
buffer = b""
for _ in range(count):
    sock.sendall(request)
    head, _, buffer = read_response(sock, buffer)
    if not head.startswith(b"HTTP/1.1 200"):
        sys.exit("unexpected response: %r" % head[:80])
sock.close()
PY

# Starts $1 under callgrind (a copy without DWARF: valgrind 3.19 cannot read the DWARF 5 debug
# information Swift 6 writes; the symbol table stays) and waits until it answers (bounded: 300 s,
# a minute is usual on a busy machine); then the warm-up.
start_server() {
    rm -f "$WORK"/callgrind.out.*
    cp "$1" "$WORK/server"
    objcopy --strip-debug "$WORK/server"
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    # One event loop keeps the count free of cross-thread hand-offs that vary from run to run.
    local command=("$WORK/server" serve --quiet --event-loops 1 --host 127.0.0.1 --port "$PORT")
    [[ "$CORE" == yes ]] && command=("$WORK/server" serve-core --loops 1 --port "$PORT")
    LD_PRELOAD="$WORK/main-queue.so" SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out.%p" \
        "${command[@]}" >"$WORK/serve.log" 2>&1 &
    SERVER_PID=$!
    local ready=no
    for _ in $(seq 1 1500); do
        if python3 "$WORK/client.py" "$PORT" 1 2>/dev/null; then ready=yes; break; fi
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.2
    done
    [[ "$ready" == yes ]] || { echo "bench-instructions: the server did not answer under valgrind:" >&2; cat "$WORK/serve.log" >&2; exit 1; }
    python3 "$WORK/client.py" "$PORT" "$WARMUP"
}

# Dumps the counters and prints the new dump's total (scripts/lib/callgrind.sh).
dump_total() { callgrind_dump_total "$WORK" "$SERVER_PID"; }

# Zeroes the counters, runs the client with $1 requests, dumps; prints the dump's total.
measure() {
    callgrind_control -z "$SERVER_PID" >/dev/null 2>&1
    python3 "$WORK/client.py" "$PORT" "$1"
    # Let the loop finish with the closed connection before the dump.
    sleep 0.5
    dump_total
}

# The fan-out client: a handshake for the cursor, N parked long-polls, then "parked" on stdout; on
# a line on stdin one publish, every answer read (Content-Length), then "done"; on a second line
# the connections close. N = 0: the publish alone (the baseline).
cat >"$WORK/fanout.py" <<'PY'
import json, socket, sys
from benchhttp import read_response
port, count = int(sys.argv[1]), int(sys.argv[2])

def exchange(path):
    sock = socket.create_connection(("127.0.0.1", port), timeout=300)
    sock.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head, body, _ = read_response(sock)
    sock.close()
    if not head.startswith(b"HTTP/1.1 200"):
        sys.exit("unexpected response: %r" % head[:80])
    return body

cursor = json.loads(exchange(b"/v2/subscribe/bench/bench-ch/0?tt=0&uuid=bench-hs"))["t"]
sockets = []
for index in range(count):
    sock = socket.create_connection(("127.0.0.1", port), timeout=300)
    sock.sendall(b"GET /v2/subscribe/bench/bench-ch/0?tt=%s&tr=%d&uuid=bench-%d&heartbeat=300 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                 % (cursor["t"].encode(), cursor["r"], index))
    sockets.append(sock)
print("parked", flush=True)
sys.stdin.readline()
exchange(b"/publish/bench/bench/0/bench-ch/0/%22hello%22?uuid=bench-pub")
for sock in sockets:
    head, body, _ = read_response(sock)
    if not head.startswith(b"HTTP/1.1 200") or b"hello" not in body:
        sys.exit("unexpected long-poll answer: %r" % (head[:80] + body[:80]))
print("done", flush=True)
sys.stdin.readline()
for sock in sockets:
    sock.close()
PY

# Parks $1 long-polls, waits for the server to have read them (under valgrind: 2 s and 3 ms per
# long-poll; a benchmark settle pause), zeroes the counters, publishes, reads every answer, dumps;
# prints the dump's total.
measure_fanout() {
    coproc FANOUT_CLIENT { python3 "$WORK/fanout.py" "$PORT" "$1"; }
    local line
    read -r -t 600 line <&"${FANOUT_CLIENT[0]}" || true
    [[ "$line" == parked ]] || { echo "bench-instructions: the fan-out client did not park its long-polls" >&2; exit 1; }
    sleep "$(awk -v n="$1" 'BEGIN {printf "%.2f", 2 + n * 0.003}')"
    callgrind_control -z "$SERVER_PID" >/dev/null 2>&1
    echo go >&"${FANOUT_CLIENT[1]}"
    read -r -t 600 line <&"${FANOUT_CLIENT[0]}" || true
    [[ "$line" == done ]] || { echo "bench-instructions: the fan-out client did not read every answer" >&2; exit 1; }
    sleep 0.5
    local total client_pid="$FANOUT_CLIENT_PID"
    total=$(dump_total)
    # The long-polls' connections close after the dump: closing is not part of the fan-out.
    echo close >&"${FANOUT_CLIENT[1]}"
    wait "$client_pid" 2>/dev/null || true
    echo "$total"
}

UNIT="publish"
[[ "$FANOUT" -gt 0 ]] && UNIT="long-poll answer"
if [[ "$FANOUT" -gt 0 ]]; then
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $FANOUT parked long-polls answered per repetition, $WARMUP warm-up publishes"
else
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $REQUESTS publishes per repetition, $WARMUP warm-up"
fi
RESULTS=()
for binary in "${BINARIES[@]}"; do
    echo "binary: $binary"
    start_server "$binary"
    FIGURES=()
    for repetition in $(seq 1 "$REPEAT"); do
        if [[ "$FANOUT" -gt 0 ]]; then
            baseline=$(measure_fanout 0)
            total=$(measure_fanout "$FANOUT")
            count="$FANOUT"
        else
            baseline=$(measure 0)
            total=$(measure "$REQUESTS")
            count="$REQUESTS"
        fi
        if [[ -n "$SAVE" ]]; then
            mkdir -p "$SAVE"
            cp "$(ls "$WORK"/callgrind.out.* | sort -V | tail -1)" "$SAVE/callgrind.$((${#RESULTS[@]} + 1)).out"
        fi
        per=$(awk -v t="$total" -v b="$baseline" -v n="$count" 'BEGIN {printf "%.0f", (t - b) / n}')
        FIGURES+=("$per")
        echo "  repetition $repetition: total $total, baseline $baseline -> $per instructions per $UNIT"
    done
    stop_server
    median=$(printf '%s\n' "${FIGURES[@]}" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)}')
    RESULTS+=("$median")
    echo "  instructions per $UNIT: $median (median of $REPEAT)"
done
if [[ ${#RESULTS[@]} -gt 1 ]]; then
    for index in $(seq 1 $((${#RESULTS[@]} - 1))); do
        awk -v a="${RESULTS[0]}" -v b="${RESULTS[$index]}" -v name="${BINARIES[$index]}" \
            'BEGIN {printf "%s: %.3f x the first binary (%+.1f %%)\n", name, b / a, (b / a - 1) * 100}'
    done
fi
