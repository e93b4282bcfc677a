// SPDX-License-Identifier: MIT
import MockPubNubServer

/// The run's seedable generator: the fault layer's SplitMix64, so a run's order and plan seeds replay exactly.
package typealias SeededGenerator = FaultRandom

/// FNV-1a 64 of a string: stable across runs and platforms (unlike `Hasher`).
package func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
    }
    return hash
}

/// The keys and user id a case uses, derived from its id so cases never share state.
public struct CaseKeys: Sendable, Hashable {
    public var subscribeKey: String
    public var publishKey: String
    public var secretKey: String
    public var uuid: String

    public init(caseID: String) {
        let tag = String(stableHash(caseID), radix: 16)
        subscribeKey = "sub-c-\(tag)"
        publishKey = "pub-c-\(tag)"
        secretKey = "sec-c-\(tag)"
        uuid = "user-\(tag)"
    }

    /// The plan seed of a case in a run: depends on the run seed and the case only, not on order.
    public static func planSeed(runSeed: UInt64, caseID: String) -> UInt64 {
        var generator = SeededGenerator(seed: runSeed ^ stableHash(caseID))
        return generator.next() >> 11  // fits a JSON number exactly
    }
}
