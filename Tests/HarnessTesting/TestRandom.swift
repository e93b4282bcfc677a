// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// The seeded tests' generator (fuzzing, random inputs): the fault layer's SplitMix64, so there is
/// one implementation of it in the package.
package typealias TestRandom = SplitMix64

extension SplitMix64 {
    /// A number in `0..<bound`.
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// `count` random bytes.
    package mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) } }
}
