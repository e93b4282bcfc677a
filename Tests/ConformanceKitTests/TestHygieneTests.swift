// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing

/// The checks that keep `swift test` failing fast instead of hanging: time limits on every suite,
/// readable comparisons of large collections, and the watch on the cooperative pool.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(1)))) struct TestHygieneTests {
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
            §Suite(.serialized, .timeLimit(.minutes(1))) struct Limited {
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
            §Test(.timeLimit(.minutes(1))) func free() {}
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

    @Test func aProbeThatNeverRunsIsAStallThatFailsTheRun() {
        let parked = Mutex<[@Sendable () -> Void]>([])
        let watch = PoolWatch(limit: 0.05) { job in parked.withLock { $0.append(job) } }
        watch.tick()
        // Until the probe runs, every tick finds it waiting and sends no other.
        watch.tick()
        #expect(parked.withLock { $0.count } == 1)
        let clock = ContinuousClock(), start = clock.now
        while watch.figures.worst.map({ $0.length <= 0.05 }) ?? true, clock.now - start < .seconds(30) {
            sched_yield()
        }
        let figures = watch.figures
        #expect(figures.probes == 0)
        #expect(PoolWatch.failure(figures, limit: watch.limit)?.hasPrefix("pool watch: FAILED: the cooperative pool ran no high-priority job for ") == true)
        for job in parked.withLock({ $0 }) { job() }
        #expect(watch.figures.probes == 1)
    }

    @Test func aPromptProbeIsCountedAndPasses() {
        let watch = PoolWatch(limit: 10) { job in job() }
        for _ in 0..<3 { watch.tick() }
        let figures = watch.figures
        #expect(figures.probes == 3)
        #expect(figures.lateProbes == 0)
        #expect(PoolWatch.failure(figures, limit: watch.limit) == nil)
        #expect(PoolWatch.summary(figures).hasPrefix("pool watch: 3 probes, 0 later than 1 s, longest wait "))
    }

    @Test func theLimitComesFromTheEnvironment() {
        #expect(PoolWatch.configuredLimit("4.5") == 4.5)
        #expect(PoolWatch.configuredLimit("0") == nil)
        #expect(PoolWatch.configuredLimit(nil) == 15 * TestTime.environmentFactor)
        #expect(PoolWatch.configuredLimit("soon") == 15 * TestTime.environmentFactor)
    }

    @Test func theSharedWatchRunsDuringTheTests() async {
        PoolWatch.startIfNeeded()
        // The watch's thread sends a probe every 200 ms; the first one arrives within the budget.
        let clock = ContinuousClock(), start = clock.now
        while PoolWatch.shared.figures.probes == 0, clock.now - start < TestTime.duration(10) {
            await ProgressTime.sleep(for: .milliseconds(100))
        }
        #expect(PoolWatch.shared.figures.probes > 0)
    }
}
