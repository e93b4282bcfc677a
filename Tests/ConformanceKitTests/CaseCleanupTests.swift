// SPDX-License-Identifier: MIT
import Foundation
import HarnessTesting
import Testing

/// `Drivers/common/case_cleanup.py`, the end of one case inside a reused driver process
/// (docs/driver-protocol.md, "Reuse"), exercised by a standard-library Python script: each check
/// prints `ok NAME` or `FAIL NAME: why`, and the test expects every `ok` line.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct CaseCleanupTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let script = #"""
    import gc, socket, sys, threading, time
    sys.path.insert(0, sys.argv[1])
    import case_cleanup

    def check(name, condition, why):
        print(("ok " + name) if condition else ("FAIL %s: %s" % (name, why)), flush=True)

    case_cleanup.freeze_process_objects()
    baseline = set(threading.enumerate())

    # A request thread that opens a new connection after the first shutdown and blocks on it
    # again: quiesce shuts that one down too, so the thread ends and nothing is closed under it.
    reads = []
    started = threading.Event()
    def reconnecting():
        for attempt in range(2):
            ours, peer = socket.socketpair()
            started.set()
            reads.append(ours.recv(10))
            ours.close(); peer.close()
            time.sleep(0.05)  # the next "request" starts after the cleaner's first round
    thread = threading.Thread(target=reconnecting, name="request-thread")
    thread.start()
    started.wait(5)
    began = time.monotonic()
    quiet = case_cleanup.quiesce(baseline, set(), 5.0)
    took = time.monotonic() - began
    check("quiesce-reconnecting-thread", quiet and not thread.is_alive() and reads == [b"", b""],
          "quiet=%s alive=%s reads=%r" % (quiet, thread.is_alive(), reads))
    check("quiesce-returns-when-done", took < 2.0, "took %.2f s" % took)

    # A thread allowed to stay (an SDK's idle watchdog) does not hold quiesce up.
    stop = threading.Event()
    watchdog = threading.Thread(target=stop.wait, name="watchdog")
    watchdog.start()
    check("quiesce-allowed-thread", case_cleanup.quiesce(baseline, {watchdog}, 5.0), "waited for the allowed thread")

    # settle: names the thread still running once its bound has passed...
    problem = case_cleanup.settle(baseline, 0.2)
    check("settle-reports-thread", problem is not None and "watchdog" in problem, repr(problem))
    stop.set(); watchdog.join(5)

    # ...and closes a socket that only cyclic garbage still holds (after the freeze).
    class Holder:
        pass
    holder = Holder(); holder.me = holder
    holder.pair = socket.socketpair()
    del holder
    check("garbage-socket-present", len(case_cleanup.case_sockets()) == 2, case_cleanup.case_sockets())
    problem = case_cleanup.settle(baseline, 5.0)
    check("settle-collects-garbage-sockets", problem is None and case_cleanup.case_sockets() == [], repr(problem))

    # A timer of the case is cancelled, not waited for.
    fired = []
    timer = threading.Timer(30, lambda: fired.append(1)); timer.start()
    began = time.monotonic()
    problem = case_cleanup.settle(baseline, 5.0)
    check("settle-cancels-timers", problem is None and not fired and time.monotonic() - began < 2.0,
          "%r fired=%r %.2f s" % (problem, fired, time.monotonic() - began))
    """#

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(10))))  // its turn at the Python gate may come after every other Python test
    func cleanupEndsReconnectingThreadsGarbageSocketsAndTimers() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("case-cleanup-\(UUID().uuidString).py")
        try Self.script.write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let common = Self.root.appendingPathComponent("Drivers/common").path
        // Through the gate: the script runs for seconds, on a thread of its own, not a pool thread.
        let (status, output) = try await PythonTestGate.run {
            Result { try runPythonScript("/usr/bin/python3", arguments: [path.path, common], seconds: TestTime.budget(30)) }
        }.get()
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        let expected = ["quiesce-reconnecting-thread", "quiesce-returns-when-done", "quiesce-allowed-thread", "settle-reports-thread",
                        "garbage-socket-present", "settle-collects-garbage-sockets", "settle-cancels-timers"]
        #expect(lines.filter { $0.hasPrefix("ok ") } == expected.map { "ok " + $0 }, "\(output)")
    }
}
