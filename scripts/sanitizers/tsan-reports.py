#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sorts the ThreadSanitizer reports of a log (scripts/sanitize.sh) into two kinds and prints the counts.

Swift 6.3's Synchronization.Mutex takes a contended lock in libswiftSynchronization, which is not
built with ThreadSanitizer: the acquire there is invisible, so two accesses inside `withLock` bodies
on different threads are reported as a race although the mutex orders them (reproduced with a
15-line program that only appends to a Mutex-guarded array from four threads). A report whose two
accesses both have such a body among their top six frames (a closure whose mangled type ends in
typed throws, `YTXEfU`, as `withLock`'s body does) is counted as `mutex`; every other report is `other`.
Exit status 1 when there is any `other` report."""
import re
import sys

text = open(sys.argv[1], errors="replace").read()
reports = [r.split("SUMMARY:")[0] for r in text.split("WARNING: ThreadSanitizer")[1:]]
mutex, other = 0, []
for report in reports:
    accesses = re.split(r"\n  (?:Previous )?(?:[Mm]odifying|[Rr]ead|[Ww]rite|[Aa]tomic)[^\n]*\n", report)[1:3]
    def in_lock_body(access):
        return any("YTXEfU" in frame for frame in re.findall(r"#\d+ (\S+)", access)[:6])
    if len(accesses) == 2 and all(in_lock_body(a) for a in accesses):
        mutex += 1
    else:
        other.append(report.strip().splitlines()[0:8])
print(f"reports {len(reports)}: inside Mutex.withLock bodies {mutex}, other {len(other)}")
for lines in other[:5]:
    print("\n".join(lines))
sys.exit(1 if other else 0)
