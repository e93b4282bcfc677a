// SPDX-License-Identifier: MIT
import PubNubCrypto
import Testing
@testable import ClientUnderTest

/// Encrypted publish, subscribe and history through the `PubNubCrypto` glue.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EncryptionTests {
    typealias F = SubscribeFixtures

    @Test func publishSendsTheLegacyCiphertext() async throws {
        let server = try ScriptedServer { _ in .http(200, #"[1,"Sent","1"]"#) }
        defer { server.stop() }
        let cipher = try PubNubCryptoCipher(cipherKey: "enigma", scheme: .legacy)
        let client = try makeClient(origin: server.origin) { $0.cipher = cipher }
        _ = try await client.publish(["text": "hi"], channel: "ch")
        let ciphertext = try CryptoModule(cipherKey: "enigma", scheme: .legacy).encryptMessage(#"{"text":"hi"}"#)
        let expected = "/publish/pub-k/sub-k/0/ch/0/" + PercentEncoding.encode("\"\(ciphertext)\"")
        #expect(server.journal.items.first?.path == expected)
    }

    @Test func subscribeDecryptsAndReportsUndecryptable() async throws {
        let module = try CryptoModule(cipherKey: "enigma", scheme: .aesCBC)
        let good = try module.encryptMessage(#"{"n":1}"#)
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            switch r.query["tt"] {
            case "0": return F.body(100)
            case "100": return F.body(200, [F.message("ch", 150, "\"\(good)\""), F.message("ch", 160, #""not-base64!""#)])
            default: return .stall
            }
        }
        defer { server.stop() }
        let cipher = try PubNubCryptoCipher(cipherKey: "enigma", scheme: .aesCBC)
        let client = try makeClient(origin: server.origin) { $0.cipher = cipher }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count == 2 })
        let messages = events.compactMap(\.messageEvent)
        #expect(messages[0].message == ["n": 1])
        #expect(messages[0].decryptionFailed == false)
        #expect(messages[1].message == "not-base64!")
        #expect(messages[1].decryptionFailed)
        #expect(recorder.statuses.map(\.category) == [.connected, .decryptionError])
        #expect(recorder.statuses[1].errorData?.channels == ["ch"])
        await client.unsubscribeAll()
    }

    @Test func historyIsDecrypted() async throws {
        let module = try CryptoModule(cipherKey: "enigma", scheme: .legacyRandomIV)
        let a = try module.encryptMessage(#""secret""#)
        let server = try ScriptedServer { _ in .http(200, #"[["\#(a)",{"plain":true}],1,2]"#) }
        defer { server.stop() }
        let cipher = try PubNubCryptoCipher(cipherKey: "enigma", scheme: .legacyRandomIV)
        let client = try makeClient(origin: server.origin) { $0.cipher = cipher }
        let recorder = Recorder()
        client.addListener(recorder)
        let result = try await client.history(channel: "ch")
        #expect(result.messages.map(\.message) == ["secret", ["plain": true]])
        #expect(result.messages.map(\.decryptionFailed) == [false, true])
        #expect(recorder.statuses.map(\.category) == [.decryptionError])
        #expect(recorder.statuses.first?.operation == .history)
        #expect(recorder.statuses.first?.errorData?.information == "1 stored message(s) on ch could not be decrypted")
    }

    @Test func emptyCipherKeyIsRefused() {
        #expect(throws: ConfigurationError(field: "cipher", reason: "")) {
            do throws(ConfigurationError) { _ = try PubNubCryptoCipher(cipherKey: "", scheme: .legacy) } catch {
                throw ConfigurationError(field: error.field, reason: "")
            }
        }
    }
}
