#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Load generator for scripts/soak.sh (Python 3 standard library only, loopback only).

Two modes against a running `pubnub-harness serve`:

  soak.py soak --port N --pid PID --seconds S [--workers W] [--warmup S]
      Mixed traffic (publish, subscribe long-polls, presence heartbeats, history, fault plans
      installed and removed over /__admin/, signed grants on an Access Manager keyset) while the
      server's RSS and open descriptors are sampled from /proc/PID every few seconds. Fails when
      RSS after warm-up grows more than 20 % or the descriptors do not return to their baseline
      once the load has stopped.

  soak.py integrity --port N --publishers P --subscribers M [--messages K] [--seconds S]
      P publishers each publish K numbered messages on their own channel; M subscribers
      long-poll all P channels and count, per publisher, messages lost, duplicated and reordered.
      Fails unless every count is 0.

Every loop is bounded in count and time; every socket has a timeout; only 127.0.0.1 is used.
"""

import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse

HOST = "127.0.0.1"
SUB = "sub-c-soak"
PUB = "pub-c-soak"
FAULT_SUB = "sub-c-soak-faults"
PAM_SUB, PAM_PUB, PAM_SECRET = "sub-c-soak-pam", "pub-c-soak-pam", "sec-c-soak-pam"
CHANNELS = [f"soak-{i}" for i in range(8)]
UUIDS = [f"soak-user-{i}" for i in range(16)]


def quote(text):
    return urllib.parse.quote(text, safe="")


class Client:
    """One keep-alive HTTP/1.1 connection to the server; reconnects after any failure."""

    def __init__(self, port, timeout):
        self.port = port
        self.timeout = timeout
        self.connection = None

    def request(self, method, path, body=None):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            try:
                headers = {"Content-Type": "application/json"} if body is not None else {}
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, data
            except (OSError, http.client.HTTPException):
                self.close()
                # A fault plan may close or reset a kept-alive connection; retry once on a new one.
                if attempt == 1:
                    raise
        raise RuntimeError("unreachable")

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def rss_and_fds(pid):
    rss = None
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


def signed_grant_path(channel, auth, timestamp):
    path = f"/v2/auth/grant/sub-key/{PAM_SUB}"
    query = {"channel": channel, "auth": auth, "r": "1", "w": "1", "ttl": "60", "timestamp": str(timestamp),
             "uuid": "soak-admin", "pnsdk": "soak/1.0"}

    def enc(text):
        return urllib.parse.quote(text, safe="-._")

    sorted_query = "&".join(f"{enc(k)}={enc(v)}" for k, v in sorted(query.items()))
    signed = f"GET\n{PAM_PUB}\n{path}\n{sorted_query}\n"
    digest = hmac.new(PAM_SECRET.encode(), signed.encode(), hashlib.sha256).digest()
    signature = "v2." + base64.urlsafe_b64encode(digest).decode().rstrip("=")
    return path + "?" + sorted_query + "&signature=" + quote(signature)


FAULT_PLAN = {
    "version": 1,
    "seed": 7,
    "description": "soak: some publishes fail, history is slow, subscribes are sometimes reset",
    "rules": [
        {"id": "publish-503", "match": {"endpoint": ["publish"]}, "probability": 0.3,
         "fault": {"kind": "status", "status": 503}},
        {"id": "history-delay", "match": {"endpoint": ["history"]}, "fault": {"kind": "delay", "ms": 20}},
        {"id": "subscribe-reset", "match": {"endpoint": ["subscribe"]}, "probability": 0.2,
         "fault": {"kind": "reset"}},
    ],
}


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}

    def add(self, name, status=None):
        key = name if status is None else f"{name}:{status}"
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1

    def snapshot(self):
        with self.lock:
            return dict(self.counts)


ALL_OPERATIONS = ["publish", "publish", "subscribe", "heartbeat", "history", "plan", "grant", "pam-publish",
                  "fault-traffic"]


def soak_worker(port, deadline, stop, stats, seed, operations=ALL_OPERATIONS):
    rng = random.Random(seed)
    client = Client(port, timeout=15)
    cursors = {}
    for _ in range(10_000_000):
        if stop.is_set() or time.monotonic() >= deadline:
            break
        op = rng.choice(operations)
        channel = rng.choice(CHANNELS)
        uuid = rng.choice(UUIDS)
        try:
            if op == "publish":
                message = quote(json.dumps({"n": rng.randrange(1 << 30), "pad": "x" * rng.randrange(200)}))
                status, _ = client.request("GET", f"/publish/{PUB}/{SUB}/0/{channel}/0/{message}?uuid={uuid}")
            elif op == "subscribe":
                tt = cursors.get(channel, "0")
                status, body = client.request(
                    "GET", f"/v2/subscribe/{SUB}/{channel}/0?uuid={uuid}&tt={tt}&heartbeat=60")
                if status == 200:
                    cursors[channel] = json.loads(body)["t"]["t"]
            elif op == "heartbeat":
                status, _ = client.request(
                    "GET", f"/v2/presence/sub-key/{SUB}/channel/{channel}/heartbeat?uuid={uuid}&heartbeat=60")
            elif op == "history":
                status, _ = client.request(
                    "GET", f"/v2/history/sub-key/{SUB}/channel/{channel}?count=20&include_token=true")
            elif op == "plan":
                if rng.random() < 0.5:
                    status, _ = client.request("PUT", f"/__admin/plans/{FAULT_SUB}", json.dumps(FAULT_PLAN))
                else:
                    status, _ = client.request("DELETE", f"/__admin/plans/{FAULT_SUB}")
            elif op == "grant":
                status, _ = client.request("GET", signed_grant_path(channel, f"auth-{uuid}", int(time.time())))
            elif op == "pam-publish":
                status, _ = client.request(
                    "GET", f"/publish/{PAM_PUB}/{PAM_SUB}/0/{channel}/0/%22pam%22?uuid={uuid}&auth=auth-{uuid}")
            else:  # traffic on the key whose fault plan comes and goes
                if rng.random() < 0.5:
                    status, _ = client.request("GET", f"/publish/{PUB}/{FAULT_SUB}/0/{channel}/0/%22f%22?uuid={uuid}")
                else:
                    status, _ = client.request(
                        "GET", f"/v2/subscribe/{FAULT_SUB}/{channel}/0?uuid={uuid}&tt=0")
            stats.add(op, status)
        except (OSError, http.client.HTTPException, ValueError, KeyError) as error:
            stats.add(op, type(error).__name__)
    client.close()


def long_poller(port, deadline, stop, stats, index):
    """Holds a subscribe long-poll open on every channel for the whole run, like an idle client."""
    client = Client(port, timeout=30)
    tt = "0"
    for _ in range(1_000_000):
        if stop.is_set() or time.monotonic() >= deadline:
            break
        try:
            status, body = client.request(
                "GET", f"/v2/subscribe/{SUB}/{','.join(CHANNELS)}/0?uuid=poller-{index}&tt={tt}&heartbeat=300")
            if status == 200:
                tt = json.loads(body)["t"]["t"]
            stats.add("long-poll", status)
        except (OSError, http.client.HTTPException, ValueError, KeyError) as error:
            stats.add("long-poll", type(error).__name__)
    client.close()


def run_soak(args):
    samples = []
    baseline_rss, baseline_fds = rss_and_fds(args.pid)
    print(f"soak: baseline rss {baseline_rss} KiB, fds {baseline_fds}", flush=True)
    stats = Stats()
    stop = threading.Event()
    start = time.monotonic()
    deadline = start + args.seconds
    operations = args.ops.split(",") if args.ops else ALL_OPERATIONS
    unknown = set(operations) - set(ALL_OPERATIONS)
    if unknown:
        print(f"soak: unknown operations {sorted(unknown)} (known: {sorted(set(ALL_OPERATIONS))})")
        return 2
    threads = [threading.Thread(target=soak_worker, args=(args.port, deadline, stop, stats, i, operations),
                                daemon=True) for i in range(args.workers)]
    threads += [threading.Thread(target=long_poller, args=(args.port, deadline, stop, stats, i), daemon=True)
                for i in range(args.pollers)]
    for thread in threads:
        thread.start()
    warmup_rss = None
    next_report = start + 60
    while time.monotonic() < deadline:
        time.sleep(min(args.sample, max(0.0, deadline - time.monotonic())))
        elapsed = time.monotonic() - start
        rss, fds = rss_and_fds(args.pid)
        samples.append((elapsed, rss, fds))
        if warmup_rss is None and elapsed >= args.warmup:
            warmup_rss = rss
            print(f"soak: after {elapsed:.0f}s warm-up rss {rss} KiB, fds {fds}", flush=True)
        if time.monotonic() >= next_report:
            next_report += 60
            total = sum(stats.snapshot().values())
            print(f"soak: {elapsed:.0f}s rss {rss} KiB fds {fds} requests {total}", flush=True)
    stop.set()
    for thread in threads:
        thread.join(timeout=40)
    alive = sum(thread.is_alive() for thread in threads)
    end_rss, _ = rss_and_fds(args.pid)
    # Descriptors: the clients have closed; the server must come back to its baseline (bounded wait).
    fds = None
    for _ in range(100):
        _, fds = rss_and_fds(args.pid)
        if fds <= baseline_fds:
            break
        time.sleep(0.1)
    counts = stats.snapshot()
    total = sum(counts.values())
    errors = {k: v for k, v in counts.items() if not k.split(":")[-1].isdigit()}
    statuses = {}
    for key, value in counts.items():
        status = key.split(":")[-1]
        statuses[status] = statuses.get(status, 0) + value
    peak_rss = max((s[1] for s in samples if s[0] >= args.warmup), default=end_rss)
    if warmup_rss is None:
        warmup_rss = samples[0][1] if samples else end_rss
    growth = (peak_rss - warmup_rss) / warmup_rss * 100.0
    duration = time.monotonic() - start
    print(f"soak: {total} requests in {args.seconds}s ({total / args.seconds:.0f}/s), by status {sorted(statuses.items())}")
    if errors:
        print(f"soak: client-side errors (faults installed by the plan, or failures): {sorted(errors.items())}")
    print(f"soak: rss baseline {baseline_rss} KiB, after warm-up {warmup_rss} KiB, peak after warm-up {peak_rss} KiB "
          f"({growth:+.1f} %), at end {end_rss} KiB; {len(samples)} samples every {args.sample}s")
    print(f"soak: fds baseline {baseline_fds}, after the load stopped {fds}")
    failures = []
    if growth > 20.0:
        failures.append(f"RSS grew {growth:.1f} % after warm-up (limit 20 %)")
    if fds > baseline_fds:
        failures.append(f"descriptors did not return to baseline ({fds} > {baseline_fds})")
    if alive:
        failures.append(f"{alive} load threads did not stop")
    if total == 0:
        failures.append("no request was made")
    with open(args.samples_out, "w") if args.samples_out else open(os.devnull, "w") as out:
        out.write("seconds,rss_kib,fds\n")
        for elapsed, rss, count in samples:
            out.write(f"{elapsed:.1f},{rss},{count}\n")
    for failure in failures:
        print(f"soak: FAIL {failure}")
    print("soak: " + ("PASS" if not failures else "FAIL") + f" ({duration:.0f}s)")
    return 0 if not failures else 1


class DeliveryLedger:
    """What one subscriber received, per publisher: messages are numbered 1...K per publisher."""

    def __init__(self, publishers, messages):
        self.messages = messages
        self.seen = [set() for _ in range(publishers)]
        self.highest = [0] * publishers
        self.duplicated = 0
        self.reordered = 0
        self.received = 0

    def record(self, publisher, number):
        if number in self.seen[publisher]:
            self.duplicated += 1
            return
        if number < self.highest[publisher]:
            self.reordered += 1
        self.seen[publisher].add(number)
        self.highest[publisher] = max(self.highest[publisher], number)
        self.received += 1

    def counts(self):
        """(lost, duplicated, reordered); lost counts numbers 1...K never received."""
        lost = sum(self.messages - len(seen) for seen in self.seen)
        return lost, self.duplicated, self.reordered


def self_test():
    """The ledger's arithmetic on known sequences, so a broken counter cannot pass a run."""
    cases = [([1, 2, 3], (0, 0, 0)), ([1, 3], (1, 0, 0)), ([1, 2, 2, 3], (0, 1, 0)),
             ([1, 3, 2], (0, 0, 1)), ([3, 2, 1, 1], (0, 1, 2)), ([], (3, 0, 0))]
    for sequence, expected in cases:
        ledger = DeliveryLedger(1, 3)
        for number in sequence:
            ledger.record(0, number)
        if ledger.counts() != expected:
            print(f"integrity: self-test FAILED: {sequence} gave {ledger.counts()}, expected {expected}")
            return False
    return True


def run_integrity(args):
    if not self_test():
        return 1
    run = f"{int(time.time())}-{os.getpid()}"
    channels = [f"integrity-{run}-p{i}" for i in range(args.publishers)]
    deadline = time.monotonic() + args.seconds
    ready = threading.Barrier(args.subscribers + 1, timeout=args.seconds)
    results = [None] * args.subscribers
    errors = Stats()

    def subscriber(index):
        client = Client(args.port, timeout=30)
        ledger = DeliveryLedger(args.publishers, args.messages)
        tt = "0"
        path = f"/v2/subscribe/{SUB}/{','.join(channels)}/0?uuid=integrity-sub-{index}"
        try:
            status, body = client.request("GET", path + "&tt=0")
            tt = json.loads(body)["t"]["t"]
        finally:
            ready.wait()
        expected = args.publishers * args.messages
        for _ in range(expected + 10_000):
            if ledger.received >= expected or time.monotonic() >= deadline:
                break
            try:
                status, body = client.request("GET", path + f"&tt={tt}")
            except (OSError, http.client.HTTPException) as error:
                errors.add("subscribe", type(error).__name__)
                continue
            if status != 200:
                errors.add("subscribe", status)
                continue
            envelope = json.loads(body)
            tt = envelope["t"]["t"]
            for item in envelope["m"]:
                ledger.record(item["d"]["p"], item["d"]["n"])
        client.close()
        results[index] = ledger.counts()

    def publisher(index):
        client = Client(args.port, timeout=15)
        for n in range(1, args.messages + 1):
            message = quote(json.dumps({"p": index, "n": n}, separators=(",", ":")))
            for _ in range(5):
                if time.monotonic() >= deadline:
                    break
                try:
                    status, body = client.request(
                        "GET", f"/publish/{PUB}/{SUB}/0/{channels[index]}/0/{message}?uuid=integrity-pub-{index}")
                    if status == 200:
                        break
                    errors.add("publish", status)
                except (OSError, http.client.HTTPException) as error:
                    errors.add("publish", type(error).__name__)
        client.close()

    subscribers = [threading.Thread(target=subscriber, args=(i,), daemon=True) for i in range(args.subscribers)]
    for thread in subscribers:
        thread.start()
    ready.wait()
    started = time.monotonic()
    publishers = [threading.Thread(target=publisher, args=(i,), daemon=True) for i in range(args.publishers)]
    for thread in publishers:
        thread.start()
    for thread in publishers + subscribers:
        thread.join(timeout=max(0.1, deadline - time.monotonic() + 35))
    elapsed = time.monotonic() - started
    lost = duplicated = reordered = 0
    unfinished = 0
    for result in results:
        if result is None:
            unfinished += 1
            continue
        lost += result[0]
        duplicated += result[1]
        reordered += result[2]
    worst = max((sum(r) for r in results if r), default=0)
    total = args.publishers * args.messages
    print(f"integrity: {args.publishers} publishers x {args.messages} messages, {args.subscribers} subscribers; "
          f"{total * args.subscribers} deliveries expected in {elapsed:.1f}s")
    print(f"integrity: lost {lost}, duplicated {duplicated}, reordered {reordered} "
          f"(worst subscriber {worst}); unfinished subscribers {unfinished}")
    if errors.snapshot():
        print(f"integrity: request errors {sorted(errors.snapshot().items())}")
    ok = lost == 0 and duplicated == 0 and reordered == 0 and unfinished == 0
    print("integrity: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    modes = parser.add_subparsers(dest="mode", required=True)
    soak = modes.add_parser("soak")
    soak.add_argument("--port", type=int, required=True)
    soak.add_argument("--pid", type=int, required=True)
    soak.add_argument("--seconds", type=int, default=300)
    soak.add_argument("--warmup", type=int, default=None, help="default: two fifths of the run, at least 10 s")
    soak.add_argument("--workers", type=int, default=8)
    soak.add_argument("--pollers", type=int, default=16)
    soak.add_argument("--sample", type=float, default=3.0)
    soak.add_argument("--samples-out", default=None)
    soak.add_argument("--ops", default=None, help="comma-separated subset of the operations (default: all)")
    integrity = modes.add_parser("integrity")
    integrity.add_argument("--port", type=int, required=True)
    integrity.add_argument("--publishers", type=int, required=True)
    integrity.add_argument("--subscribers", type=int, required=True)
    integrity.add_argument("--messages", type=int, default=100)
    integrity.add_argument("--seconds", type=int, default=120)
    args = parser.parse_args()
    if args.mode == "soak":
        if args.warmup is None:
            args.warmup = max(10, args.seconds * 2 // 5)
        sys.exit(run_soak(args))
    if not (1 <= args.publishers <= 64 and 1 <= args.subscribers <= 500 and 1 <= args.messages <= 1000):
        parser.error("publishers 1-64, subscribers 1-500, messages 1-1000 (the channel log keeps 1000)")
    sys.exit(run_integrity(args))


if __name__ == "__main__":
    main()
