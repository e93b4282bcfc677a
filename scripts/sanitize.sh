#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the whole test suite under AddressSanitizer (with LeakSanitizer) and under ThreadSanitizer.
#   scripts/sanitize.sh [address|thread]...     default: both, one after the other
# Each sanitizer builds in its own scratch path (.build-asan, .build-tsan), so the normal .build is
# untouched. Tests run one at a time (--no-parallel): the sanitizers slow every test several times,
# and the suite's per-test time budgets are sized for an uninstrumented build. Logs go to
# .fuzz/sanitize/<sanitizer>.log. Exits non-zero if a test fails or a sanitizer reports anything.
# The CLI tests run the pubnub-harness binary of the same build, so it is instrumented too (its
# LeakSanitizer is off: see HarnessProcess.childEnvironment). The tests that start Python (the
# official SDK, pysher) run when the venv /tmp/pubnub-harness-ci-venv has the packages, and say
# why they are skipped otherwise (the summary lists every skipped test with its reason).
# Suppressions live in scripts/sanitizers/ with a one-line reason each. ThreadSanitizer reports
# are sorted by scripts/sanitizers/tsan-reports.py: those inside Mutex.withLock bodies are a toolchain artefact and are counted, not failed on.
set -euo pipefail
cd "$(dirname "$0")/.."

KINDS=("$@")
[[ ${#KINDS[@]} -gt 0 ]] || KINDS=(address thread)
mkdir -p .fuzz/sanitize
status=0
summary=()
for kind in "${KINDS[@]}"; do
    # HARNESS_TEST_TIME_SCALE (Tests/HarnessTesting/TestTime.swift) stretches the tests' time
    # budgets and suite limits, and the case budgets of the `run` processes they launch, by what
    # the instrumentation costs: ThreadSanitizer slows the code several times however idle the
    # machine is. AddressSanitizer's cost is within the budgets.
    case "$kind" in
        address) scratch=.build-asan; time_scale=1 ;;
        thread) scratch=.build-tsan; time_scale=4 ;;
        *) echo "unknown sanitizer: $kind (address or thread)" >&2; exit 2 ;;
    esac
    log=".fuzz/sanitize/$kind.log"
    echo "sanitize: building the tests with --sanitize=$kind ($scratch)"
    nice -n 10 swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" >"$log.build" 2>&1 \
        || { tail -20 "$log.build"; exit 1; }
    echo "sanitize: running the tests with --sanitize=$kind (log: $log)"
    set +e
    HARNESS_TEST_TIME_SCALE="$time_scale" \
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0" \
    TSAN_OPTIONS="halt_on_error=0:exitcode=0:report_signal_unsafe=0:second_deadlock_stack=1$(
        [[ -f scripts/sanitizers/tsan.supp ]] && echo ":suppressions=$PWD/scripts/sanitizers/tsan.supp")" \
    LSAN_OPTIONS="$([[ -f scripts/sanitizers/lsan.supp ]] && echo "suppressions=$PWD/scripts/sanitizers/lsan.supp")" \
        nice -n 10 swift test --skip-build --no-parallel --sanitize="$kind" --scratch-path "$scratch" >"$log" 2>&1
    rc=$?
    set -e
    reports=$(grep -c -E '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer))' "$log" || true)
    if [[ "$kind" == thread && $reports -gt 0 ]]; then
        # Reports inside Mutex.withLock bodies are the uninstrumented Synchronization slow path
        # (see scripts/sanitizers/tsan-reports.py); only the others count.
        classified=$(python3 scripts/sanitizers/tsan-reports.py "$log") && reports=0 || true
        echo "sanitize: thread: $(echo "$classified" | head -1)"
    fi
    tests=$(grep -E 'Test run with [0-9]+ tests' "$log" | tail -1 | sed 's/^[^A-Za-z]*//')
    xctests=$(grep -E 'Executed [0-9]+ tests' "$log" | tail -1 | sed 's/^[[:space:]]*//')
    if [[ $rc -ne 0 || $reports -ne 0 ]]; then
        status=1
        echo "sanitize: $kind FAILED (exit $rc, $reports sanitizer reports); first report:"
        grep -m1 -A25 -E '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR)' "$log" || grep -E '✘|error:' "$log" | head -20
    fi
    summary+=("$kind: exit $rc, sanitizer reports $reports; ${tests:-no Swift Testing summary}; ${xctests:-no XCTest summary}")
    skipped=$(grep -E '^➜ (Test|Suite) .* skipped' "$log" | sed 's/^➜ /    skipped: /' || true)
    [[ -z "$skipped" ]] || summary+=("$skipped")
done
echo "sanitize: summary"
printf '  %s\n' "${summary[@]}"
exit $status
