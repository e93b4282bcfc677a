// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// The fault layer's seeded generator: SplitMix64 from HarnessPrimitives, so there is one
/// implementation of it in the package (the tests draw from the same one).
package typealias FaultRandom = SplitMix64
