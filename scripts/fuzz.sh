#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the fuzz entry points (Sources/HarnessFuzzing) under libFuzzer with AddressSanitizer.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 60 s each, every target
# Targets: http-parser fault-plan json-scanner driver-line websocket-frames multipart filter-expression. Seeds come from Fixtures/fuzz/<target>/;
# the corpus grown by a run is kept in .fuzz/corpus/<target>/, crash inputs in .fuzz/crashes/<target>/
# (both gitignored). Prints execs/s and crashes per target; exits 1 if any target crashed.
# Replay a saved input without the sanitizer build: swift run harness-fuzz TARGET FILE
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=60
if [[ $# -gt 0 && "$1" =~ ^[0-9]+$ ]]; then SECONDS_EACH="$1"; shift; fi
ALL=(http-parser fault-plan json-scanner driver-line websocket-frames multipart filter-expression)
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=("${ALL[@]}")
for target in "${TARGETS[@]}"; do
    [[ " ${ALL[*]} " == *" $target "* ]] || { echo "unknown target: $target (known: ${ALL[*]})" >&2; exit 2; }
done

SCRATCH=.build-fuzz
FLAGS=(-c release --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
       -Xswiftc -DHARNESS_LIBFUZZER -Xcc -DHARNESS_LIBFUZZER)
echo "fuzz: building harness-fuzz with libFuzzer + AddressSanitizer ($SCRATCH)"
nice -n 10 swift build "${FLAGS[@]}" --product harness-fuzz >/dev/null
BIN="$(swift build "${FLAGS[@]}" --show-bin-path)/harness-fuzz"

failed=0
summary=()
for target in "${TARGETS[@]}"; do
    corpus=".fuzz/corpus/$target"
    crashes=".fuzz/crashes/$target"
    log=".fuzz/logs/$target.log"
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    before=$(find "$crashes" -type f | wc -l)
    echo "fuzz: $target for ${SECONDS_EACH}s"
    set +e
    # -max_len bounds the inputs (requests, plans and lines are short); -timeout flags hangs;
    # -rss_limit_mb flags runaway memory; one job, so the run stays within one core.
    HARNESS_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=1 nice -n 10 "$BIN" \
        -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "Fixtures/fuzz/$target" >"$log" 2>&1
    rc=$?
    set -e
    after=$(find "$crashes" -type f | wc -l)
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    secs=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    new=$((after - before))
    if [[ $rc -ne 0 || $new -gt 0 ]]; then
        failed=1
        echo "fuzz: $target FAILED (exit $rc); crash inputs in $crashes/, log in $log"
        grep -m3 -E 'invariant failed|ERROR: AddressSanitizer|Fatal error|deadly signal|timeout|out-of-memory' "$log" || true
    fi
    summary+=("$(printf '%-13s %8ss %10s runs %8s exec/s  cov %6s  crashes %s' "$target" "$SECONDS_EACH" "${runs:-?}" "${secs:-?}" "${cov:-?}" "$new")")
done
echo "fuzz: summary"
printf '  %s\n' "${summary[@]}"
exit $failed
