# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Sourced by the callgrind benchmarks (bench-instructions.sh, bench-tls-instructions.sh).
#
# build_dispatch_main_shim BINARY DIR, and callgrind_dump_total DIR PID below.
#
# Swift's async main ends in dispatch_main(), which parks the main thread in sigsuspend from a
# thread-exit destructor; valgrind 3.19 crashes there ("the 'impossible' happened") as soon as the
# next thread starts. A preloaded dispatch_main that drains the main queue in a poll loop (as
# CoreFoundation's run loop does on Linux) runs the same program without that path.
#
# build_dispatch_main_shim BINARY DIR: writes DIR/main-queue.so for LD_PRELOAD; exits 2 with a
# one-line message when there is no C compiler or BINARY does not link libdispatch.
build_dispatch_main_shim() {
    local binary=$1 dir=$2 dispatch_lib
    command -v cc >/dev/null || { echo "$(basename "$0"): needs a C compiler (cc) for the dispatch_main shim" >&2; exit 2; }
    dispatch_lib=$(ldd "$binary" | awk '/libdispatch\.so/ {print $3}')
    [[ -n "$dispatch_lib" ]] || { echo "$(basename "$0"): $binary does not link libdispatch" >&2; exit 2; }
    cat >"$dir/main-queue.c" <<'C'
#include <poll.h>
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);
void dispatch_main(void) {
    int fd = _dispatch_get_main_queue_handle_4CF();
    for (;;) {
        struct pollfd ready = { fd, POLLIN, 0 };
        if (poll(&ready, 1, -1) > 0) _dispatch_main_queue_callback_4CF(0);
    }
}
C
    cc -shared -fPIC -O2 -o "$dir/main-queue.so" "$dir/main-queue.c" "$dispatch_lib" -Wl,-rpath,"$(dirname "$dispatch_lib")"
}

# callgrind_dump_total DIR PID: has the callgrind run PID write its counters into a new file in DIR
# and prints that dump's total instruction count; exits 1 with a one-line message when no dump appears.
callgrind_dump_total() {
    local dir=$1 pid=$2 before latest
    before=$(ls "$dir" | grep -c '^callgrind.out' || true)
    callgrind_control -d "$pid" >/dev/null 2>&1
    [[ $(ls "$dir" | grep -c '^callgrind.out') -gt "$before" ]] || { echo "$(basename "$0"): no dump written" >&2; exit 1; }
    latest=$(ls "$dir"/callgrind.out.* | sort -V | tail -1)
    awk '/^(summary|totals):/ {print $2; exit}' "$latest"
}
