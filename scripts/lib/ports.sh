# SPDX-License-Identifier: MIT
# Loopback port helpers for the benchmark scripts (sourced, not run).

# Prints a free TCP port on 127.0.0.1.
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
