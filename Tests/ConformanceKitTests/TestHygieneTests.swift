// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing

/// The checks that keep `swift test` failing fast instead of hanging: time limits on every suite,
/// readable comparisons of large collections, and the watch on the cooperative pool.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TestHygieneTests {
    // MARK: - Time limits and large comparisons in the sources

    @Test func everySuiteOfTheProjectHasATimeLimitAndNoLargeEquality() throws {
        let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let files = TestSourceAudit.sources(under: testsDirectory)
        try #require(files.count > 100, "found \(files.count) test sources under \(testsDirectory)")
        let findings = TestSourceAudit.audit(files)
        #expect(findings.isEmpty, "\(findings.count) findings:\n\(findings.prefix(20).map(\.description).joined(separator: "\n"))")
    }

    @Test func theAuditFindsEachProblem() {
        // § and ¤ stand for @ and # so that the audit of this file does not find the fixture.
        let text = """
            §Suite struct Unlimited {
                §Test func a() {}
            }
            struct Unmarked {
                §Test func b() {}
            }
            §Suite(.serialized, .timeLimit(.minutes(5))) struct Limited {
                §Test func c() {
                    ¤expect(client.response == head + body)
                    ¤expect(client.response.count == head.count + body.count)
                }
                struct Nested {
                    §Test func d() {}
                }
            }
            extension Limited {
                §Test func e() {}
            }
            extension Unmarked {
                §Test func f() {}
            }
            §Test(.timeLimit(.minutes(5))) func free() {}
            §Test func freeUnlimited() {}
            """
            .replacingOccurrences(of: "§", with: "@").replacingOccurrences(of: "¤", with: "#")
        let findings = TestSourceAudit.audit([(path: "X.swift", text: text)])
        #expect(findings.map(\.line) == [1, 5, 9, 20, 23])
        #expect(findings.map(\.problem) == [
            "@Suite without .timeLimit", "test outside any suite with a .timeLimit",
            "#expect(==) on what may be a large collection: use expectSameElements",
            "test outside any suite with a .timeLimit", "test outside any suite with a .timeLimit",
        ])
    }

    @Test func declarationsAreReadThroughAttributesAndModifiers() {
        #expect(TestSourceAudit.declaredType(#"@Suite("a b", .serialized) struct Named {"#)! == ("struct", "Named"))
        #expect(TestSourceAudit.declaredType("package final class Box: Sendable {")! == ("class", "Box"))
        #expect(TestSourceAudit.declaredType("extension Outer.Inner {")! == ("extension", "Outer"))
        #expect(TestSourceAudit.declaredType("    let structure = 1") == nil)
        #expect(TestSourceAudit.declaredType("// a struct Comment") == nil)
    }

    // MARK: - The first difference of two large collections

    @Test func aLargeMismatchNamesTheOffsetTheLengthsAndTheBytesAround() {
        let expected = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var actual = expected
        actual[1_572_864] ^= 0xFF
        let mismatch = Mismatch<UInt8>.first(actual, expected)
        #expect(mismatch?.offset == 1_572_864)
        #expect(mismatch?.windowStart == 1_572_856)
        #expect(mismatch?.actualWindow.count == 17)
        #expect(mismatch?.description.hasPrefix("first difference at offset 1572864 (both 3000000 long); from offset 1572856: got [") == true)
    }

    @Test func aShorterValueDiffersWhereItEnds() {
        let mismatch = Mismatch<UInt8>.first(Array("HTTP/1.1 200".utf8), Array("HTTP/1.1 200 OK".utf8))
        #expect(mismatch?.offset == 12)
        #expect(mismatch?.description == #"first difference at offset 12 (12 against 15 expected); from offset 4: got [2f 31 2e 31 20 32 30 30] "/1.1 200", expected [2f 31 2e 31 20 32 30 30 20 4f 4b] "/1.1 200 OK""#)
        #expect(Mismatch<UInt8>.first([1, 2, 3], [1, 2, 3]) == nil)
        #expect(Mismatch<Int>.first([], [7])?.description == "first difference at offset 0 (0 against 1 expected); from offset 0: got [], expected [7]")
    }

    // MARK: - The pool watch

    /// A fake pool: probes are parked until the test runs them, on one thread (7) whose CPU time
    /// is what `cpu` holds.
    private final class FakePool: Sendable {
        let parked = Mutex<[@Sendable () -> Void]>([])
        let cpu = Mutex(100)

        func watch(limit: Double) -> PoolWatch {
            PoolWatch(limit: limit, enqueue: { job in self.parked.withLock { $0.append(job) } },
                      readCPU: { _ in self.cpu.withLock { $0 } }, currentThread: { 7 })
        }

        func runParked() {
            for job in parked.withLock({ jobs in defer { jobs = [] }; return jobs }) { job() }
        }
    }

    /// Ticks until `done` holds (at most 30 s: the fake pool needs only a few ticks and 50 ms).
    private static func tick(_ watch: PoolWatch, until done: (PoolWatch.Figures) -> Bool) {
        let clock = ContinuousClock(), start = clock.now
        while !done(watch.figures), clock.now - start < .seconds(30) {
            watch.tick()
            sched_yield()
        }
    }

    @Test func aProbeWaitingWhileNoPoolThreadRunsIsBlockedTimeThatFailsTheRun() {
        let pool = FakePool()
        let watch = pool.watch(limit: 0.05)
        watch.tick()
        pool.runParked()
        #expect(watch.figures.probes == 1 && watch.figures.poolThreads == 1)
        // The next probe waits and the thread's CPU time stands still: blocked.
        Self.tick(watch) { ($0.longestBlocked?.length ?? 0) > 0.05 }
        #expect(pool.parked.withLock { $0.count } == 1, "a waiting probe is not sent again")
        let failure = PoolWatch.failure(watch.figures, limit: watch.limit)
        #expect(failure?.hasPrefix("pool watch: FAILED: work waited ") == true)
        #expect(failure?.contains("while none of its threads ran") == true)
    }

    @Test func aProbeWaitingWhileThePoolComputesIsAWaitNotABlock() {
        let pool = FakePool()
        let watch = pool.watch(limit: 0.05)
        watch.tick()
        pool.runParked()
        // The pool thread keeps using CPU while the probe waits (a busy machine, a long computation).
        Self.tick(watch) { figures in
            pool.cpu.withLock { $0 += 1 }
            return (figures.longestWait?.length ?? 0) > 0.1
        }
        #expect(watch.figures.longestBlocked == nil)
        #expect(PoolWatch.failure(watch.figures, limit: watch.limit) == nil)
    }

    @Test func aPromptProbeIsCountedAndPasses() {
        let watch = PoolWatch(limit: 10, enqueue: { job in job() }, readCPU: { _ in 1 }, currentThread: { 3 })
        for _ in 0..<3 { watch.tick() }
        let figures = watch.figures
        #expect(figures.probes == 3 && figures.poolThreads == 1)
        #expect(figures.longestBlocked == nil)
        #expect(PoolWatch.failure(figures, limit: watch.limit) == nil)
        #expect(PoolWatch.summary(figures).hasPrefix("pool watch: 3 probes on 1 pool threads; longest wait "))
        #expect(PoolWatch.summary(figures).hasSuffix("; longest blocked none"))
    }

    @Test func aThreadsCPUTimeIsReadFromItsStatLine() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        #expect(PoolWatch.cpuTicks(statLine: "812 (a b) S 1 812 812 0 -1 4194304 10 0 0 0 37 5 0 0 20 0") == 42)
        #expect(PoolWatch.cpuTicks(statLine: "garbage") == nil)
        #expect(PoolWatch.threadID() > 0)
        #expect(PoolWatch.procCPUTicks(PoolWatch.threadID()) != nil)
    }

    @Test func theLimitComesFromTheEnvironment() {
        #expect(PoolWatch.configuredLimit("4.5") == 4.5)
        #expect(PoolWatch.configuredLimit("0") == nil)
        #expect(PoolWatch.configuredLimit(nil) == 10 * TestTime.environmentFactor)
        #expect(PoolWatch.configuredLimit("soon") == 10 * TestTime.environmentFactor)
    }

    @Test func theSharedWatchRunsDuringTheTests() async {
        PoolWatch.startIfNeeded()
        // The watch's thread sends a probe every 200 ms; the first one arrives within the budget.
        let clock = ContinuousClock(), start = clock.now
        while PoolWatch.shared.figures.probes == 0, clock.now - start < TestTime.duration(120) {
            await ProgressTime.sleep(for: .milliseconds(100))
        }
        #expect(PoolWatch.shared.figures.probes > 0)
    }
}
