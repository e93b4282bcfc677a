#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Does the harness give the same verdict on a busy machine? Runs the whole catalog with the same
# seed through each client under each load condition, N times each, and compares every case's
# outcome with the quiet runs.
#
#   scripts/stability.sh [--clients "built-in python pusher"] [--conditions "quiet cpu mixed"] [--runs N]
#                        [--generators G] [--suite NAME ...] [--seed N] [--load-seconds S]
#                        [--compare-reuse] [--out DIR] [-- RUN-OPTIONS...]
#
# Conditions: quiet (no added load); cpu (12 busy shell loops); mixed (a second `pubnub-harness
# serve` kept busy by G loopback load generators, scripts/soak.py in soak mode, default 9). Every
# load process is started under `timeout --load-seconds` (default 1800) and killed when its run
# ends. --runs (default 3) repeats every (client, condition) run. The python client is
# Drivers/python/pubnub_driver.py in a venv with pubnub 10.8.0 (the one .ci/run uses, created
# when missing; PUBNUB_SDK_VENV overrides its place); pysher is Drivers/pysher/pysher_driver.py
# with pysher 1.0.8 from the same venv and its expectation file. pusher is the Pusher family
# (`run --family pusher`) with the built-in Pusher client; --suite names starting with `pusher`
# go to pusher and pysher only.
# --compare-reuse runs every driver condition twice, one process per case (`--no-driver-reuse`,
# shown as CONDITION-fresh) and with warm drivers (CONDITION-reuse, docs/driver-protocol.md,
# "Reuse"), so the comparison below lists every case whose verdict reuse changed.
# Prints each case's outcome per condition (runs that disagree show as `pass/fail`), the cases
# whose verdict changed between any two runs (flaky counts as a pass: it is not failing, and is
# listed separately), the wall time, time scale and load average of each run, and writes the
# same as Markdown to DIR/summary.md. Exit status: 0 when no verdict changed, 1 when one did,
# 2 for a setup error. Reports go to --out (default .build/stability).
set -euo pipefail
cd "$(dirname "$0")/.."

clients="built-in python pusher"
conditions="quiet cpu mixed"
suites=()
pusher_suites=()
seed=20261123
load_seconds=1800
runs=3
generators=9
out=".build/stability"
python_sdk=10.8.0
pysher_version=1.0.8
driver_modes="default"
run_options=()
while [ $# -gt 0 ]; do
    case "$1" in
        --clients) clients="$2"; shift 2 ;;
        --conditions) conditions="$2"; shift 2 ;;
        --suite) if [[ "$2" == pusher* ]]; then pusher_suites+=(--suite "$2"); else suites+=(--suite "$2"); fi; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --load-seconds) load_seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --generators) generators="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --) shift; run_options=("$@"); break ;;
        --compare-reuse) driver_modes="fresh reuse"; shift ;;
        -h|--help) sed -n '3,27p' "$0"; exit 0 ;;
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
    timeout "$load_seconds" "$harness" serve --host 127.0.0.1 --port 0 --quiet --long-poll-timeout 5 \
        --keyset sub-c-soak-pam:pub-c-soak-pam:sec-c-soak-pam >"$log" 2>&1 &
    local server=$!
    load_pids+=($server)
    local port=""
    for _ in $(seq 100); do
        port=$(sed -n 's#^listening on http://127.0.0.1:\([0-9]*\)$#\1#p' "$log" | head -1)
        [ -n "$port" ] && break
        sleep 0.1
    done
    if [ -z "$port" ]; then echo "stability: the load server did not start (see $log)" >&2; exit 2; fi
    # The load generators' own verdicts (RSS growth, descriptors) are not this script's concern.
    for i in $(seq "$generators"); do
        timeout "$load_seconds" python3 scripts/soak.py soak --port "$port" --pid "$server" --seconds "$load_seconds" \
            --workers 4 --pollers 4 >"$out/load-$i.log" 2>&1 &
        load_pids+=($!)
    done
    sleep 2  # the generators' start-up, so the run begins under load
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

pysher_command() {
    local venv="${PUBNUB_SDK_VENV:-${TMPDIR:-/tmp}/pubnub-harness-ci-venv}"
    if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('pysher') != '$pysher_version')" 2>/dev/null; then
        echo "stability: installing pysher==$pysher_version into $venv" >&2
        { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } && "$venv/bin/pip" install -q "pysher==$pysher_version" >&2 \
            || { echo "stability: cannot make a venv with pysher==$pysher_version" >&2; exit 2; }
    fi
    echo "$venv/bin/python $PWD/Drivers/pysher/pysher_driver.py"
}

[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "stability: --runs needs a positive number" >&2; exit 2; }
rm -f "$out"/runs.txt "$out"/*-run*.json
for client in $clients; do
    client_args=()
    selection=(${suites[@]+"${suites[@]}"})
    case "$client" in
        built-in) ;;
        python) client_args=(--client-command "$(python_command)" --client-name "python-sdk-$python_sdk") ;;
        pusher) client_args=(--family pusher); selection=(${pusher_suites[@]+"${pusher_suites[@]}"}) ;;
        pysher) client_args=(--family pusher --client-command "$(pysher_command)" --client-name "pysher-$pysher_version"
                             --expectations Fixtures/expectations/pysher-$pysher_version.json)
                selection=(${pusher_suites[@]+"${pusher_suites[@]}"}) ;;
        *) echo "stability: unknown client $client (built-in, python, pusher, pysher)" >&2; exit 2 ;;
    esac
    modes="$driver_modes"
    [ "$client" = built-in ] && modes="default"
    for condition in $conditions; do
      for mode in $modes; do
        mode_args=()
        label="$condition"
        case "$mode" in
            default) ;;
            fresh) mode_args=(--no-driver-reuse); label="$condition-fresh" ;;
            reuse) label="$condition-reuse" ;;
        esac
        for run in $(seq "$runs"); do
            case "$condition" in
                quiet) ;;
                cpu) start_cpu_load; sleep 1 ;;
                mixed) start_mixed_load ;;
                *) echo "stability: unknown condition $condition (quiet, cpu, mixed)" >&2; exit 2 ;;
            esac
            name="$client-$label-run$run"
            report="$out/$name.json"
            load_before=$(cut -d' ' -f1 /proc/loadavg)
            echo "stability: $client, $label, run $run/$runs (load average $load_before)"
            started=$(date +%s.%N)
            # Exit status 1 only means cases failed: the comparison below is what counts here.
            "$harness" run --seed "$seed" ${selection[@]+"${selection[@]}"} ${client_args[@]+"${client_args[@]}"} \
                ${mode_args[@]+"${mode_args[@]}"} ${run_options[@]+"${run_options[@]}"} --json "$report" >"$out/$name.log" 2>&1 || true
            ended=$(date +%s.%N)
            load_after=$(cut -d' ' -f1 /proc/loadavg)
            stop_load
            scale=$(grep -m1 '^time scale' "$out/$name.log" | sed 's/, driver start-up.*//' || true)
            echo "  $scale"
            if [ ! -s "$report" ]; then echo "stability: no report for $name (see $out/$name.log)" >&2; exit 2; fi
            drivers=$(grep -m1 '^driver processes:' "$out/$name.log" || true)
            [ -n "$drivers" ] && echo "  $drivers"
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$client" "$label" "$run" "$(echo "$ended - $started" | bc)" \
                "$load_before" "$load_after" "$scale" >>"$out/runs.txt"
        done
      done
    done
done

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
verdict = lambda outcome: "pass" if outcome == "flaky" else outcome
runs = []  # (client, condition, run, wall, load before, load after, scale, outcomes)
for line in open(os.path.join(out, "runs.txt")):
    client, condition, run, wall, before, after, scale = line.rstrip("\n").split("\t")
    with open(os.path.join(out, f"{client}-{condition}-run{run}.json")) as f:
        report = json.load(f)
    outcomes = {c["id"]: c["outcome"] for c in report["cases"]}
    runs.append((client, condition, int(run), float(wall), before, after, scale, outcomes))

md = ["# Stability runs", "",
      "Every case's verdict per client and load condition (flaky counts as a pass); "
      "`a/b` means the runs of that condition disagreed.", ""]
changed_total = 0
for client in dict.fromkeys(r[0] for r in runs):
    mine = [r for r in runs if r[0] == client]
    conditions = list(dict.fromkeys(r[1] for r in mine))
    ids = sorted(set().union(*[set(r[7]) for r in mine]))
    def cell(case, condition):
        seen = list(dict.fromkeys(r[7].get(case, "-") for r in mine if r[1] == condition))
        return "/".join(seen)
    print(f"\n{client}: " + " | ".join(conditions))
    changed, changed_by_condition = [], {c: 0 for c in conditions}
    for case in ids:
        verdicts = {c: {verdict(r[7].get(case, "-")) for r in mine if r[1] == c} for c in conditions}
        every = set().union(*verdicts.values())
        mark = ""
        if len(every) > 1:
            changed.append(case)
            mark = "  <- changed"
            baseline = verdicts[conditions[0]]
            for c in conditions:
                if len(verdicts[c]) > 1 or verdicts[c] != baseline:
                    changed_by_condition[c] += 1
        print(f"  {case:50} " + " | ".join(f"{cell(case, c):10}" for c in conditions) + mark)
    md += [f"## {client}", "", "| condition | run | wall (s) | load average (start → end) | time scale | pass | non-strict | fail | skipped | flaky |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for (_, condition, run, wall, before, after, scale, outcomes) in mine:
        counts = [sum(1 for o in outcomes.values() if o == k) for k in ("pass", "non-strict", "fail", "skipped", "flaky")]
        print(f"  {condition:6} run {run}  {wall:7.1f} s  load {before} → {after}  " + ", ".join(
            f"{n} {k}" for k, n in zip(("pass", "non-strict", "fail", "skipped", "flaky"), counts)) + f"  ({scale})")
        md.append(f"| {condition} | {run} | {wall:.1f} | {before} → {after} | {scale.replace('time scale ', '')} | " + " | ".join(map(str, counts)) + " |")
    print(f"  {len(changed)} case(s) changed verdict" + (": " + ", ".join(changed) if changed else "")
          + "  (per condition: " + ", ".join(f"{c} {n}" for c, n in changed_by_condition.items()) + ")")
    md += ["", f"Cases whose verdict changed: **{len(changed)}** of {len(ids)} "
           + "(" + ", ".join(f"{c}: {n}" for c, n in changed_by_condition.items()) + ").", ""]
    if changed:
        md += ["| case | " + " | ".join(conditions) + " |", "|---|" + "---|" * len(conditions)]
        md += [f"| `{case}` | " + " | ".join(cell(case, c) for c in conditions) + " |" for case in changed]
        md.append("")
    flaky = sorted({case for r in mine for case, o in r[7].items() if o == "flaky"})
    if flaky:
        md += ["Flaky (passed on the serial retry): " + ", ".join(f"`{c}`" for c in flaky), ""]
    changed_total += len(changed)
with open(os.path.join(out, "summary.md"), "w") as f:
    f.write("\n".join(md) + "\n")
print(f"\nstability: {changed_total} changed verdict(s) in total; summary in {os.path.join(out, 'summary.md')}")
sys.exit(1 if changed_total else 0)
PY
