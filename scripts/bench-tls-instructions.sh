#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions (valgrind's callgrind) per TLS request and per TLS connection of `pubnub-harness
# serve`, with the server's own TLS 1.3 record layer and with OpenSSL's (`--tls-records
# own|openssl`): what the record layer costs, free of the machine's load (docs/performance.md,
# "Memory per idle wss connection, round 6").
#
#   scripts/bench-tls-instructions.sh BINARY [--requests 1000] [--connections 200]
#
# For each mode: starts BINARY's `serve --event-loops 1 --tls-port P` under callgrind (a copy
# without its DWARF, which valgrind 3.19 cannot read), warms it up with 200 requests on one
# connection, then measures (a) one connection that only does its handshake (the baseline),
# (b) N keep-alive `GET /time/0` on one connection, and (c) M connections one after another, each
# a handshake, one request and the close. Prints ((b) - (a)) / N and ((c) - (a)) / M, and keeps the
# dumps in the work directory for `callgrind_annotate --inclusive=yes`. The client is Python's ssl
# module (outside valgrind, so it costs nothing in the count).
set -euo pipefail
cd "$(dirname "$0")/.."

[[ $# -ge 1 ]] || { sed -n '3,16p' "$0"; exit 2; }
BINARY=$1
shift
REQUESTS=1000
CONNECTIONS=200
while [[ $# -gt 0 ]]; do
    case "$1" in
        --requests) REQUESTS="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        *) echo "bench-tls-instructions: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ -f "$BINARY" && -x "$BINARY" ]] || { echo "bench-tls-instructions: $BINARY is not an executable file" >&2; exit 2; }
for tool in valgrind callgrind_control objcopy cc python3; do
    command -v "$tool" >/dev/null || { echo "bench-tls-instructions: needs $tool" >&2; exit 2; }
done
"$BINARY" serve --help | grep -q -- --tls-records || { echo "bench-tls-instructions: $BINARY has no --tls-records" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-tls-instructions.XXXXXX")
SERVER_PID=""
trap '[[ -z "$SERVER_PID" ]] || kill "$SERVER_PID" 2>/dev/null || true' EXIT
echo "bench-tls-instructions: work directory $WORK"

# The dispatch_main shim valgrind needs (scripts/lib/callgrind.sh).
source scripts/lib/callgrind.sh
build_dispatch_main_shim "$BINARY" "$WORK"

# client.py PORT REQUESTS CONNECTIONS: CONNECTIONS connections one after another, each with
# REQUESTS keep-alive GET /time/0 (each answer read whole before the next request).
cat >"$WORK/client.py" <<'PY'
import socket, ssl, sys
port, requests, connections = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
for _ in range(connections):
    sock = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=120))
    buffer = b""
    for _ in range(requests):
        sock.sendall(b"GET /time/0 HTTP/1.1\r\nHost: bench\r\n\r\n")
        while True:
            if b"\r\n\r\n" in buffer:
                head, _, rest = buffer.partition(b"\r\n\r\n")
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
                if len(rest) >= length:
                    buffer = rest[length:]
                    break
            chunk = sock.recv(65536)
            if not chunk:
                sys.exit("connection closed early")
            buffer += chunk
    sock.close()
PY

cp "$BINARY" "$WORK/server"
objcopy --strip-debug "$WORK/server"

# Dumps the counters and prints the new dump's total (scripts/lib/callgrind.sh).
dump() { callgrind_dump_total "$WORK" "$SERVER_PID"; }

for mode in own openssl; do
    rm -f "$WORK"/callgrind.out.*
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    LD_PRELOAD="$WORK/main-queue.so" SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind \
        --callgrind-out-file="$WORK/callgrind.out.%p" \
        "$WORK/server" serve --quiet --event-loops 1 --port 0 --tls-port "$PORT" --tls-records "$mode" >"$WORK/serve.$mode.log" 2>&1 &
    SERVER_PID=$!
    ready=no
    for _ in $(seq 1 1500); do
        if python3 "$WORK/client.py" "$PORT" 1 1 2>/dev/null; then ready=yes; break; fi
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.2
    done
    [[ "$ready" == yes ]] || { echo "bench-tls-instructions: the server did not answer under valgrind" >&2; cat "$WORK/serve.$mode.log" >&2; exit 1; }
    python3 "$WORK/client.py" "$PORT" 200 1
    callgrind_control -z "$SERVER_PID" >/dev/null 2>&1
    python3 "$WORK/client.py" "$PORT" 0 1
    base=$(dump)
    callgrind_control -z "$SERVER_PID" >/dev/null 2>&1
    python3 "$WORK/client.py" "$PORT" "$REQUESTS" 1
    requests_total=$(dump)
    cp "$(ls "$WORK"/callgrind.out.* | sort -V | tail -1)" "$WORK/requests.$mode.out"
    callgrind_control -z "$SERVER_PID" >/dev/null 2>&1
    python3 "$WORK/client.py" "$PORT" 1 "$CONNECTIONS"
    connections_total=$(dump)
    cp "$(ls "$WORK"/callgrind.out.* | sort -V | tail -1)" "$WORK/connections.$mode.out"
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    echo "$mode: $(( (requests_total - base) / REQUESTS )) instructions per request (one record each way)," \
        "$(( (connections_total - base) / CONNECTIONS )) per connection (handshake, one request, close); handshake-only connection $base"
done
