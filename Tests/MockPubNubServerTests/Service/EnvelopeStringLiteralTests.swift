// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import MockPubNubServer

/// The envelope's short strings (shard, publisher, subscribe key, channel) are written as JSON
/// string literals eight bytes at a time; each must read exactly as `JSONText.stringLiteral`
/// writes it, whatever its length and wherever a byte that needs an escape sits.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EnvelopeStringLiteralTests {
    /// The envelope of a message whose four short strings are `shard`, `publisher`, `key` and `channel`.
    private func envelope(shard: String, publisher: String, key: String, channel: String) -> String {
        var message = StoredMessage(
            timetoken: 0, channel: channel, kind: .message, payload: "1", meta: nil, publisher: publisher,
            sequence: 1, customMessageType: nil, originTimetoken: nil, inHistory: true, live: true, expiresAt: nil)
        message.renderEnvelope(subscribeKey: key, region: 2, shard: shard)
        message.timetoken = 5
        return message.envelope(match: nil)
    }

    /// The envelope `envelope` must produce, written with `JSONText.stringLiteral`.
    private func expected(shard: String, publisher: String, key: String, channel: String) -> String {
        "{\"a\":" + JSONText.stringLiteral(shard) + ",\"f\":0,\"i\":" + JSONText.stringLiteral(publisher)
            + ",\"s\":1,\"p\":{\"t\":\"5\",\"r\":2},\"k\":" + JSONText.stringLiteral(key)
            + ",\"c\":" + JSONText.stringLiteral(channel) + ",\"d\":1}"
    }

    private func check(_ text: String) {
        #expect(envelope(shard: text, publisher: text, key: text, channel: text)
            == expected(shard: text, publisher: text, key: text, channel: text), "\(Array(text.utf8))")
    }

    @Test func everyLengthUpToThreeWordsWithAnEscapeAtEveryPosition() {
        // Escaped: the control characters' ends, the quote and the backslash. Plain: their
        // neighbours, DEL, and multi-byte characters whose bytes share low bits with `"` or `\`
        // (U+0722 is DC A2) or have their top three bits set (U+0800 is E0 A0 80).
        let specials = ["\u{0}", "\u{1}", "\n", "\u{1F}", "\"", "\\", " ", "!", "#", "[", "]", "\u{7F}", "é", "\u{722}",
                        "\u{800}", "€", "🎉"]
        for length in 0...24 {
            check(String(repeating: "a", count: length))
            for position in 0...length {
                for special in specials {
                    let prefix = String(repeating: "b", count: position)
                    let suffix = String(repeating: "c", count: length - position)
                    check(prefix + special + suffix)
                }
            }
        }
    }

    @Test func emptyAndLongStringsAndDifferentStringsInOneEnvelope() {
        check("")
        let long = String(repeating: "channel-0123456789", count: 60)
        check(long)
        check(long + "\"")
        check("\u{1}" + long)
        check(long + "é" + long)
        #expect(envelope(shard: "", publisher: "u\"1", key: "sub-c-0123456789abcdef", channel: "ch-é")
            == "{\"a\":\"\",\"f\":0,\"i\":\"u\\\"1\",\"s\":1,\"p\":{\"t\":\"5\",\"r\":2},\"k\":\"sub-c-0123456789abcdef\","
            + "\"c\":\"ch-é\",\"d\":1}")
    }
}
