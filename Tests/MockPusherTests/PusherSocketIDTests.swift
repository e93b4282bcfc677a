// SPDX-License-Identifier: MIT
import MockPusher
import Testing

/// The one-word socket id: every generated id round-trips through it; other texts name no connection.
@Suite("Pusher socket id", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherSocketIDTests {
    @Test func generatedIDsRoundTripAndMatchTheTextSequence() {
        var texts = PusherSocketIDGenerator(seed: 42)
        var values = PusherSocketIDGenerator(seed: 42)
        for _ in 0..<1_000 {
            let text = texts.next()
            let value = values.nextID()
            #expect(value.description == text)
            #expect(PusherSocketID(text) == value)
        }
    }

    @Test func extremesOfTheShapeParse() {
        #expect(PusherSocketID("1.1")?.description == "1.1")
        #expect(PusherSocketID("999999.99999999")?.description == "999999.99999999")
        #expect(PusherSocketID("45481.3166671") == PusherSocketID(first: 45481, second: 3_166_671))
    }

    @Test func otherTextsAreNoSocketID() {
        for text in ["", ".", "1.", ".1", "1", "01.1", "1.01", "1.2.3", "a.1", "1.b", "1234567.1", "1.123456789", " 1.1", "1.1 ", "-1.1", "１.1"] {
            #expect(PusherSocketID(text) == nil, "\(text)")
        }
    }
}
