// SPDX-License-Identifier: MIT
import PubNubCrypto
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Subscribe-body faults on a full `MockServer`, read back as PubNub subscribe answers.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct SubscribeFaultEndToEndTests {
    private func subscribeAnswer(_ key: String, fault: String, tt: String = "17000000000000000", extra: String = "&tr=3")
        async throws -> HTTPResponseText
    {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, key, EndToEnd.plan(fault: fault))
            return try EndToEnd.response(port: port, EndToEnd.subscribe(key, tt: tt, extra: extra))
        }
    }

    @Test func manyMessagesArriveInOneAnswer() async throws {
        let response = try await subscribeAnswer("sk-many", fault: #"{"kind":"messages","count":150}"#)
        let messages = try SubscribeBody.messages(response.body)
        #expect(messages.count == 150)
        #expect(messages.first?["c"] == .string("ch"))
        #expect(messages.first?["k"] == .string("sk-many"))
        #expect(messages.first?["d"]?["n"] == .number("1"))
        #expect(messages.last?["d"]?["text"] == .string("message 150 of 150"))
        #expect(try SubscribeBody.region(response.body) == "3")
        // The cursor is the last message's timetoken.
        #expect(messages.last?["p"]?["t"] == .string(try SubscribeBody.cursor(response.body)))
    }

    @Test func foreignEncryptedDecryptsOnlyWithTheOtherKey() async throws {
        let response = try await subscribeAnswer(
            "sk-foreign", fault: #"{"kind":"foreign-encrypted","cipherKey":"their-key","message":"{\"text\":\"secret\"}"}"#)
        let messages = try SubscribeBody.messages(response.body)
        try #require(messages.count == 1)
        guard case .string(let ciphertext)? = messages[0]["d"] else {
            Issue.record("payload is not a string: \(response.bodyText)")
            return
        }
        #expect(try CryptoModule(cipherKey: "their-key", scheme: .aesCBC).decryptMessage(ciphertext) == #"{"text":"secret"}"#)
        // With the client's own key it fails (or, with a random IV's ~1/256 chance of valid padding, yields garbage).
        let mine = try CryptoModule(cipherKey: "my-key", scheme: .aesCBC)
        #expect((try? mine.decryptMessage(ciphertext)) != #"{"text":"secret"}"#)
    }

    @Test func cursorJumpsBackwards() async throws {
        let response = try await subscribeAnswer("sk-back", fault: #"{"kind":"cursor-backwards","by":600000000}"#)
        #expect(try SubscribeBody.messages(response.body).isEmpty)
        #expect(try SubscribeBody.cursor(response.body) == "16999999400000000")
        #expect(try SubscribeBody.region(response.body) == "3")
    }

    @Test func regionChangeKeepsTheCursor() async throws {
        let response = try await subscribeAnswer("sk-region", fault: #"{"kind":"region-change","region":27}"#)
        #expect(try SubscribeBody.messages(response.body).isEmpty)
        #expect(try SubscribeBody.cursor(response.body) == "17000000000000000")
        #expect(try SubscribeBody.region(response.body) == "27")
    }
}
