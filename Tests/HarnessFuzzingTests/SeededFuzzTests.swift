// SPDX-License-Identifier: MIT
import Foundation
import HarnessFuzzing
import HarnessTesting
import Testing

/// Every fuzz entry point on its seed corpus (Fixtures/fuzz/<target>/) plus a bounded number of
/// seeded mutations: the invariants of the long libFuzzer runs, checked on every `swift test`.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct SeededFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Mutations per target: at least `minimum`, then more until `maximum` or the time budget.
    static let minimum = 300
    static let maximum = 4000
    static let budget: Duration = .milliseconds(1500)

    @Test(arguments: FuzzTarget.allCases)
    func seedsAndMutationsKeepTheInvariants(target: FuzzTarget) async throws {
        // Up to `budget` of computing: on a thread of its own, not one of the test pool's few.
        try await offThePool { try fuzz(target) }
    }

    /// The seed corpus, then seeded mutations until `maximum` or the budget.
    func fuzz(_ target: FuzzTarget) throws {
        let seeds = try FuzzCorpus.load(FuzzCorpus.folder(for: target, root: Self.root))
        #expect(seeds.count >= 8, "the seed corpus of \(target.rawValue) is missing or thin")
        for seed in seeds {
            #expect(throws: Never.self, "seed \(seed.name)") { try target.run(seed.bytes) }
        }
        let corpus = seeds.map(\.bytes)
        var mutator = SeededMutator(seed: 0x5EED_0000 &+ UInt64(target.rawValue.utf8.count))
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.budget)
        var ran = 0
        var failures: [String] = []
        while ran < Self.maximum && (ran < Self.minimum || clock.now < deadline) && failures.count < 5 {
            let input = mutator.mutate(corpus[Int(mutator.next() % UInt64(corpus.count))], splicingFrom: corpus)
            do {
                try target.run(input)
            } catch {
                failures.append("\(error) for \(String(decoding: input, as: UTF8.self).debugDescription)")
            }
            ran += 1
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func mutatorIsDeterministicAndBounded() {
        var first = SeededMutator(seed: 7)
        var second = SeededMutator(seed: 7)
        let seed = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        for _ in 0..<200 {
            let a = first.mutate(seed, splicingFrom: [seed], maxLength: 64)
            #expect(a == second.mutate(seed, splicingFrom: [seed], maxLength: 64))
            #expect(a.count <= 64)
        }
    }
}
