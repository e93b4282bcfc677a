#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Does the harness give the same verdict on a busy machine? Runs the catalog with the same seed
# through each client under each load condition and compares every case's outcome with the
# quiet run.
#
#   scripts/stability.sh [--clients "built-in python"] [--conditions "quiet cpu mixed"]
#                        [--suite NAME ...] [--seed N] [--load-seconds S] [--out DIR] [-- RUN-OPTIONS...]
#
# Conditions: quiet (no added load); cpu (12 busy shell loops); mixed (a second `pubnub-harness
# serve` kept busy by loopback load generators: wrk when installed, else Python loops). Every load
# process is started under `timeout --load-seconds` (default 900) and killed when its run ends.
# The python client is Drivers/python/pubnub_driver.py in a venv with pubnub 10.8.0 (the one
# .ci/run uses, created when missing; PUBNUB_SDK_VENV overrides its place).
# Prints each case's outcome per condition, the cases whose verdict changed (flaky counts as a
# pass: it is not failing, and is listed separately), and the wall time of each run. Exit status:
# 0 when no verdict changed, 1 when one did, 2 for a setup error. Reports go to --out
# (default .build/stability).
set -euo pipefail
cd "$(dirname "$0")/.."

clients="built-in python"
conditions="quiet cpu mixed"
suites=()
seed=20261123
load_seconds=900
out=".build/stability"
python_sdk=10.8.0
run_options=()
while [ $# -gt 0 ]; do
    case "$1" in
        --clients) clients="$2"; shift 2 ;;
        --conditions) conditions="$2"; shift 2 ;;
        --suite) suites+=(--suite "$2"); shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --load-seconds) load_seconds="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --) shift; run_options=("$@"); break ;;
        -h|--help) sed -n '3,19p' "$0"; exit 0 ;;
        *) echo "stability: unknown option $1" >&2; exit 2 ;;
    esac
done

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
swift build --product pubnub-harness >/dev/null || { echo "stability: build failed" >&2; exit 2; }
harness="$(swift build --show-bin-path)/pubnub-harness"
mkdir -p "$out"

load_pids=()
stop_load() {
    for pid in ${load_pids[@]+"${load_pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
    for pid in ${load_pids[@]+"${load_pids[@]}"}; do wait "$pid" 2>/dev/null || true; done
    load_pids=()
}
trap stop_load EXIT

start_cpu_load() {
    for _ in $(seq 12); do
        timeout "$load_seconds" sh -c 'while :; do :; done' &
        load_pids+=($!)
    done
}

start_mixed_load() {
    local log="$out/serve.log"
    timeout "$load_seconds" "$harness" serve --port 0 >"$log" 2>&1 &
    load_pids+=($!)
    local address=""
    for _ in $(seq 100); do
        address=$(sed -n 's#^listening on http://\(.*\)$#\1#p' "$log" | head -1)
        [ -n "$address" ] && break
        sleep 0.1
    done
    if [ -z "$address" ]; then echo "stability: the load server did not start (see $log)" >&2; exit 2; fi
    if command -v wrk >/dev/null 2>&1; then
        timeout "$load_seconds" wrk -t2 -c32 -d"${load_seconds}s" "http://$address/time/0" >/dev/null 2>&1 &
        load_pids+=($!)
        timeout "$load_seconds" wrk -t1 -c8 -d"${load_seconds}s" \
            "http://$address/publish/demo/demo/0/load/0/%22x%22?uuid=load" >/dev/null 2>&1 &
        load_pids+=($!)
    else
        for _ in 1 2 3 4; do
            timeout "$load_seconds" python3 - "$address" <<'PY' &
import http.client, sys
host, port = sys.argv[1].rsplit(":", 1)
while True:  # bounded by the `timeout` around this process
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        for _ in range(200):
            connection.request("GET", "/time/0")
            connection.getresponse().read()
    except OSError:
        pass
    finally:
        connection.close()
PY
            load_pids+=($!)
        done
    fi
}

python_command() {
    local venv="${PUBNUB_SDK_VENV:-${TMPDIR:-/tmp}/pubnub-harness-ci-venv}"
    if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('pubnub') != '$python_sdk')" 2>/dev/null; then
        echo "stability: installing pubnub==$python_sdk into $venv" >&2
        python3 -m venv "$venv" && "$venv/bin/pip" install -q "pubnub==$python_sdk" >&2 \
            || { echo "stability: cannot make a venv with pubnub==$python_sdk" >&2; exit 2; }
    fi
    echo "$venv/bin/python $PWD/Drivers/python/pubnub_driver.py --flavour sync"
}

reports=()
for client in $clients; do
    client_args=()
    case "$client" in
        built-in) ;;
        python) client_args=(--client-command "$(python_command)" --client-name "python-sdk-$python_sdk") ;;
        *) echo "stability: unknown client $client (built-in, python)" >&2; exit 2 ;;
    esac
    for condition in $conditions; do
        case "$condition" in
            quiet) ;;
            cpu) start_cpu_load ;;
            mixed) start_mixed_load ;;
            *) echo "stability: unknown condition $condition (quiet, cpu, mixed)" >&2; exit 2 ;;
        esac
        report="$out/$client-$condition.json"
        echo "stability: $client, $condition (load average $(cut -d' ' -f1 /proc/loadavg))"
        started=$(date +%s.%N)
        # Exit status 1 only means cases failed: the comparison below is what counts here.
        "$harness" run --seed "$seed" ${suites[@]+"${suites[@]}"} ${client_args[@]+"${client_args[@]}"} \
            ${run_options[@]+"${run_options[@]}"} --json "$report" >"$out/$client-$condition.log" 2>&1 || true
        ended=$(date +%s.%N)
        stop_load
        grep -m1 '^time scale' "$out/$client-$condition.log" | sed 's/^/  /' || true
        if [ ! -s "$report" ]; then echo "stability: no report for $client $condition (see $out/$client-$condition.log)" >&2; exit 2; fi
        echo "$client $condition $(echo "$ended - $started" | bc)" >>"$out/wall-times.txt.new"
        reports+=("$report")
    done
done
mv "$out/wall-times.txt.new" "$out/wall-times.txt"

python3 - "$out/wall-times.txt" "${reports[@]}" <<'PY'
import json, os, sys
walls = {}
for line in open(sys.argv[1]):
    client, condition, seconds = line.split()
    walls[(client, condition)] = float(seconds)
runs = {}
for path in sys.argv[2:]:
    client, condition = os.path.basename(path)[:-len(".json")].rsplit("-", 1)
    with open(path) as f:
        runs.setdefault(client, {})[condition] = {c["id"]: c["outcome"] for c in json.load(f)["cases"]}
verdict = lambda outcome: "pass" if outcome == "flaky" else outcome
changed_total = 0
for client, by_condition in runs.items():
    conditions = list(by_condition)
    baseline = conditions[0]
    ids = sorted(set().union(*[set(r) for r in by_condition.values()]))
    print(f"\n{client}: " + " | ".join(conditions))
    changed = []
    for case in ids:
        outcomes = [by_condition[c].get(case, "-") for c in conditions]
        mark = ""
        if len({verdict(o) for o in outcomes}) > 1:
            changed.append(case)
            mark = "  <- changed"
        print(f"  {case:50} " + " | ".join(f"{o:10}" for o in outcomes) + mark)
    for condition in conditions:
        outcomes = list(by_condition[condition].values())
        counts = {o: outcomes.count(o) for o in ("pass", "non-strict", "fail", "skipped", "flaky")}
        print(f"  {condition:8} {walls.get((client, condition), 0):7.1f} s  " + ", ".join(f"{n} {o}" for o, n in counts.items()))
    print(f"  {len(changed)} case(s) changed verdict against {baseline}" + (": " + ", ".join(changed) if changed else ""))
    changed_total += len(changed)
print(f"\nstability: {changed_total} changed verdict(s) in total")
sys.exit(1 if changed_total else 0)
PY
