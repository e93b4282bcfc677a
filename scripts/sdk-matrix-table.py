#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds the SDK compatibility table from pubnub-harness JSON reports (docs/report-schema.json).

    scripts/sdk-matrix-table.py --out docs/sdk-matrix [--expectations DIR] REPORT.json ...

One row per report (client name `pubnub-python-<version>-<flavour>`), one column per suite,
cells `passed / non-strict / failed / skipped`. Writes OUT.md and (unless --no-html) OUT.html. OUT.md also gets a
triage of every failure against the newest release's expectation files (DIR, default
Fixtures/expectations: `python-sdk-<newest>.json` for sync, `-asyncio.json` for asyncio): a
failure listed there is a known SDK behaviour, any other is new. Whatever follows the line
`<!-- notes -->` in an existing OUT.md (hand-written notes) is kept.
"""
import argparse
import datetime
import html
import json
import os
import re

SUITES = ["publish", "subscribe", "presence", "history", "groups", "pam", "faults", "tls", "transport",
          "reconnect", "threshold", "encryption", "objects", "access-v3", "files", "push", "message-types", "filters", "message-actions"]


def version_key(name):
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", name)
    return tuple(-int(x) for x in match.groups()) if match else (0,)


def load(path):
    with open(path) as handle:
        report = json.load(handle)
    client = report["summary"].get("client") or path
    cells = {}
    for case in report["cases"]:
        counts = cells.setdefault(case["suite"], {"pass": 0, "non-strict": 0, "fail": 0, "skipped": 0})
        counts[case["outcome"]] = counts.get(case["outcome"], 0) + 1
    return client, report["summary"], cells


def cell(counts):
    if counts is None:
        return "—"
    return "%d / %d / %d / %d" % (counts["pass"], counts["non-strict"], counts["fail"], counts["skipped"])


NOTES_MARK = "<!-- notes -->"


def triage(rows, failures, directory):
    """Markdown lines: each older row's failures, known (listed for the newest release) or new."""
    versions = [re.search(r"(\d+\.\d+\.\d+)", client) for client, _, _ in rows]
    newest = next((match.group(1) for match in versions if match), None)
    if newest is None:
        return []
    listed = {}
    for flavour, suffix in (("sync", ""), ("asyncio", "-asyncio")):
        path = os.path.join(directory, "python-sdk-%s%s.json" % (newest, suffix))
        if os.path.exists(path):
            with open(path) as handle:
                listed[flavour] = {d["case"] for d in json.load(handle)["deviations"] if d["outcome"] == "fail"}
    lines = ["", "## Failures against the %s expectation files" % newest, "",
             "For each row, the failed cases that are entries of `Fixtures/expectations/python-sdk-%s[-asyncio].json` "
             "for the same flavour (a known SDK behaviour, explained there) and the others (new: not seen in %s). "
             "Generated with the table." % (newest, newest), "",
             "| SDK (flavour) | failed | known (explained for %s) | new |" % newest, "|---|---|---|---|"]
    for client, _, _ in rows:
        name = client.replace("pubnub-python-", "")
        flavour = "asyncio" if name.endswith("asyncio") else "sync"
        ids = failures.get(client, [])
        known = [i for i in ids if i in listed.get(flavour, set())]
        new = [i for i in ids if i not in listed.get(flavour, set())]
        lines.append("| %s | %d | %s | %s |" % (name, len(ids), ", ".join("`%s`" % i for i in known) or "—",
                                                  compact(new) or "—"))
    return lines


def compact(ids):
    """Case ids grouped by their first two components: `faults.subscribe.{a, b}`."""
    groups = {}
    for case in ids:
        head, _, tail = case.rpartition(".")
        groups.setdefault(head, []).append(tail)
    return ", ".join("`%s.%s`" % (head, tails[0]) if len(tails) == 1 else "`%s.{%s}`" % (head, ", ".join(tails))
                     for head, tails in groups.items())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--expectations", default="Fixtures/expectations")
    parser.add_argument("--no-html", action="store_true", help="write OUT.md only (OUT.html comes from `pubnub-harness merge`)")
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args()
    failures = {}
    for path in args.reports:
        with open(path) as handle:
            report = json.load(handle)
        client = report["summary"].get("client") or path
        failures[client] = sorted(case["id"] for case in report["cases"] if case["outcome"] == "fail")
    rows = sorted((load(path) for path in args.reports), key=lambda row: (version_key(row[0]), row[0]))
    suites = [s for s in SUITES if any(s in row[2] for row in rows)] + sorted(
        {s for row in rows for s in row[2]} - set(SUITES))
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    lines = ["# Python SDK compatibility matrix", "",
             "Generated by `scripts/sdk-matrix.sh` on %s: the conformance suites run through "
             "`Drivers/python/pubnub_driver.py` against each `pubnub` release. Cells are "
             "**passed / non-strict / failed / skipped**; a case is skipped when the SDK lacks the "
             "operation or setting, or when its declared profile makes the case not apply "
             "(docs/driver-protocol.md, \"Profiles\")." % stamp, "",
             "| SDK (flavour) | total | " + " | ".join(suites) + " |",
             "|---|---|" + "---|" * len(suites)]
    for client, summary, cells in rows:
        name = client.replace("pubnub-python-", "")
        total = "%d / %d / %d / %d" % (summary["passed"], summary["nonStrict"], summary["failed"], summary["skipped"])
        lines.append("| %s | %s | %s |" % (name, total, " | ".join(cell(cells.get(s)) for s in suites)))
    lines += triage(rows, failures, args.expectations)
    notes = ""
    if os.path.exists(args.out + ".md"):
        with open(args.out + ".md") as handle:
            previous = handle.read()
        if NOTES_MARK in previous:
            notes = previous[previous.index(NOTES_MARK):]
    with open(args.out + ".md", "w") as handle:
        handle.write("\n".join(lines) + "\n" + ("\n" + notes if notes else ""))
    if args.no_html:
        return

    def td(counts):
        if counts is None:
            return "<td>—</td>"
        css = "fail" if counts["fail"] else ("ns" if counts["non-strict"] else "ok")
        return '<td class="%s">%s</td>' % (css, html.escape(cell(counts)))

    body = ["<tr><th>SDK (flavour)</th><th>total</th>" + "".join("<th>%s</th>" % html.escape(s) for s in suites) + "</tr>"]
    for client, summary, cells in rows:
        name = client.replace("pubnub-python-", "")
        total = {"pass": summary["passed"], "non-strict": summary["nonStrict"], "fail": summary["failed"],
                 "skipped": summary["skipped"]}
        body.append("<tr><th>%s</th>%s%s</tr>" % (html.escape(name), td(total), "".join(td(cells.get(s)) for s in suites)))
    page = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Python SDK compatibility matrix</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:4px 8px;text-align:center;white-space:nowrap}
td.ok{background:#d8f5d0}td.ns{background:#fff3c4}td.fail{background:#f8d0d0}</style></head>
<body><h1>Python SDK compatibility matrix</h1>
<p>Generated by <code>scripts/sdk-matrix.sh</code> on %s. Cells: passed / non-strict / failed / skipped.</p>
<table>
%s
</table></body></html>
""" % (html.escape(stamp), "\n".join(body))
    with open(args.out + ".html", "w") as handle:
        handle.write(page)


if __name__ == "__main__":
    main()
