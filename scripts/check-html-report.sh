#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Renders an HTML report in a real browser (headless Chromium, Debian's `chromium`) and checks that
# what is drawn matches the journal: per case, the request arrows and fault marks in the rendered
# DOM equal the JSON report's journal counts (journalRequests, journalFaults, counted from the
# server's journal entries), every answer and connection event is drawn, failed cases open their
# timeline at the failing step, and the page's script ran. The report has failures (the example
# driver's deliberate deviations), faults that fired, and TLS cases. With python3's jsonschema
# installed, the JSON report is also checked against docs/report-schema.json.
#
#   scripts/check-html-report.sh [--out DIR] [--keep]
#
# Writes DIR/report.{json,html}, DIR/dom.html and DIR/report.png (default: a temporary folder,
# removed unless --keep). Exit 0 when every check holds, 1 otherwise, 2 when chromium is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

out=""
keep=no
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; keep=yes; shift 2 ;;
        --keep) keep=yes; shift ;;
        -h|--help) sed -n '3,13p' "$0"; exit 0 ;;
        *) echo "check-html-report: unknown option $1" >&2; exit 2 ;;
    esac
done
command -v chromium >/dev/null 2>&1 || { echo "check-html-report: chromium is missing (apt-get install -y chromium)" >&2; exit 2; }
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
if [ -z "$out" ]; then out=$(mktemp -d); fi
mkdir -p "$out"
out=$(cd "$out" && pwd)   # absolute: chromium is given file://$out/... URLs
[ "$keep" = yes ] || trap 'rm -rf "$out"' EXIT

swift build --product pubnub-harness >/dev/null
bin="$(swift build --show-bin-path)/pubnub-harness"

# Failures (invalid chunking, a truncated body the example driver accepts), faults that fired
# (statuses, a reset, a retry sequence), TLS (a trusted handshake with requests, an expired
# certificate refused before any request).
cases=(faults.request.invalid-chunked faults.request.truncated-body-full-length faults.request.status-503
       faults.request.reset-after-headers faults.subscribe.status-403 faults.request.fail-twice-then-succeed
       faults.subscribe.cursor-backwards tls.subscribe.tls-trusted tls.request.tls-expired publish.get.string)
args=()
for id in "${cases[@]}"; do args+=(--case "$id"); done
status=0
"$bin" run --client-command "python3 Examples/driver/fake_driver.py" --client-name example-driver "${args[@]}" \
    --json "$out/report.json" --html "$out/report.html" >"$out/run.log" 2>&1 || status=$?
[ "$status" -le 1 ] || { echo "check-html-report: the run failed to start:"; cat "$out/run.log"; exit 1; }

browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-dev-shm-usage)
"${browser[@]}" --dump-dom "file://$out/report.html" >"$out/dom.html" 2>"$out/chromium.log"
"${browser[@]}" --window-size=1400,2200 --screenshot="$out/report.png" "file://$out/report.html" >>"$out/chromium.log" 2>&1
[ -s "$out/report.png" ] || { echo "check-html-report: no screenshot"; cat "$out/chromium.log"; exit 1; }

python3 - "$out/report.json" "$out/dom.html" <<'PY'
import html.parser, json, sys

report = json.load(open(sys.argv[1]))
dom = open(sys.argv[2], encoding="utf-8").read()

class Boxes(html.parser.HTMLParser):
    """Collects, per timeline box, the data-tl kinds drawn inside it and the failing marks."""
    def __init__(self):
        super().__init__()
        self.boxes, self.current, self.depth, self.details_open, self.shown = {}, None, 0, {}, ""
        self.pending_open, self.in_shown = None, False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "details" and "tl" in (a.get("class") or "").split():
            self.pending_open = "open" in a
        if self.current is not None and tag == "div":
            self.depth += 1
        if tag == "div" and "tl-box" in (a.get("class") or "").split():
            self.current, self.depth = a["data-case"], 1
            self.boxes[self.current] = {"kinds": {}, "failing": 0, "requests": int(a["data-requests"]), "faults": int(a["data-faults"]),
                                        "open": self.pending_open, "openAtFail": "data-open-at-fail" in a}
        elif self.current is not None and "data-tl" in a:
            kinds = self.boxes[self.current]["kinds"]
            kinds[a["data-tl"]] = kinds.get(a["data-tl"], 0) + 1
            if "data-failing" in a:
                self.boxes[self.current]["failing"] += 1
        if tag == "span" and a.get("id") == "shown":
            self.in_shown = True
    def handle_endtag(self, tag):
        if self.current is not None and tag == "div":
            self.depth -= 1
            if self.depth == 0:
                self.current = None
        if tag == "span":
            self.in_shown = False
    def handle_data(self, data):
        if self.in_shown:
            self.shown += data

parser = Boxes()
parser.feed(dom)
problems, checked = [], 0
cases = {c["id"]: c for c in report["cases"]}
if "of %d cases" % len(cases) not in parser.shown:
    problems.append("the page's script did not run (filter line: %r)" % parser.shown)
saw = {"failure": False, "fault": False, "tls": False}
for case_id, case in cases.items():
    timeline = case.get("timeline")
    if not timeline or not timeline["items"]:
        continue
    box = parser.boxes.get(case_id)
    if box is None:
        problems.append("%s: no timeline drawn" % case_id)
        continue
    checked += 1
    kinds = box["kinds"]
    items = timeline["items"]
    def expect(what, drawn, wanted):
        if drawn != wanted:
            problems.append("%s: %s drawn %d, journal %d" % (case_id, what, drawn, wanted))
    expect("request arrows", kinds.get("request", 0), timeline["journalRequests"])
    expect("fault marks", kinds.get("fault", 0), timeline["journalFaults"])
    expect("box data-requests", box["requests"], timeline["journalRequests"])
    expect("box data-faults", box["faults"], timeline["journalFaults"])
    for kind in ("answer", "connection", "listener", "status", "event", "step"):
        expect(kind + " items", kinds.get(kind, 0), sum(1 for item in items if item["kind"] == kind))
    if case["outcome"] == "fail":
        saw["failure"] = True
        if not (box["open"] and box["openAtFail"] and box["failing"] == 1):
            problems.append("%s: failed, but its timeline is not open at one failing step (%r)" % (case_id, box))
    elif box["open"] or box["failing"]:
        problems.append("%s: not failed, but its timeline is open or marked" % case_id)
    if timeline["journalFaults"] > 0:
        saw["fault"] = True
    if case["suite"] == "tls" and (kinds.get("listener", 0) > 0 or any("(TLS)" in item["label"] for item in items)):
        saw["tls"] = True
try:
    import jsonschema
    schema = json.load(open("docs/report-schema.json"))
    jsonschema.validate(report, schema)
except ImportError:
    print("check-html-report: python3 jsonschema not installed: the report is not checked against docs/report-schema.json")
except jsonschema.ValidationError as error:
    problems.append("the JSON report does not follow docs/report-schema.json: %s" % error.message)
for what, seen in saw.items():
    if not seen:
        problems.append("the report has no %s case with a timeline" % what)
for line in problems:
    print("check-html-report: " + line)
print("check-html-report: %d timeline(s) checked in the rendered DOM against the journal counts; %s"
      % (checked, "FAIL" if problems else "ok"))
sys.exit(1 if problems else 0)
PY
echo "check-html-report: screenshot $out/report.png"
