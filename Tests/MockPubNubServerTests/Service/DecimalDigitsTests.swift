// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// The two-digits-at-a-time decimal writer (`HTTPResponseEncoder.writeDecimal`) and the bodies built
/// with it, against `String(value)`.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct DecimalDigitsTests {
    /// Every power of ten from 1 to 10^19, one below it and one above it, and the extremes.
    static let boundaries: [UInt64] = {
        var values: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, UInt64.max, UInt64.max - 1, 17_356_896_001_234_567]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        return values
    }()

    static func written(_ value: UInt64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { scratch in
            scratch.initialize(repeating: UInt8(ascii: "#"))
            let start = scratch.baseAddress! + 2
            let count = HTTPResponseEncoder.writeDecimal(value, to: start)
            // Nothing written before the digits or after them.
            #expect(start[-1] == UInt8(ascii: "#") && start[count] == UInt8(ascii: "#"))
            return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        }
    }

    @Test func everyValueBelowTenThousandIsSpelledAsStringSpellsIt() {
        for value in UInt64(0)..<10_000 where Self.written(value) != String(value) {
            Issue.record("\(value) written as \(Self.written(value))")
        }
    }

    @Test func powersOfTenAndTheExtremesAreSpelledAsStringSpellsThem() {
        for value in Self.boundaries {
            #expect(Self.written(value) == String(value))
        }
    }

    @Test func digitsAreAppendedAfterTheBytesThere() {
        for value in Self.boundaries {
            var bytes = Array("x:".utf8)
            PubNubBodies.appendDecimal(value, to: &bytes)
            expectSameElements(bytes, Array(("x:" + String(value)).utf8))
        }
        var empty: [UInt8] = []
        PubNubBodies.appendDecimal(0, to: &empty)
        #expect(empty == [UInt8(ascii: "0")])
    }

    @Test func thePublishedBodySpellsEveryBoundary() {
        for value in Self.boundaries {
            #expect(PubNubBodies.publishedBytes(value) == Array(PubNubBodies.published(value).utf8))
        }
    }
}
