// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher
import PusherCrypto
import Testing
@testable import ConformanceKit

/// The harness's app-server side of encrypted channels: triggers encrypted as the HTTP libraries do,
/// their refusals, and every case's app getting a master key (or none, where the case asks).
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PusherTriggerEncryptionTests {
    static let app: PusherApp = {
        var options = PusherAppOptions()
        options.encryptionMasterKey = [UInt8](repeating: 1, count: 32)
        return PusherApp(id: "1", key: "k", secret: "s", options: options)
    }()

    @Test func encryptedChannelDataIsSealedWithTheChannelsSharedSecret() throws {
        let sent = try PusherTriggerEncryption.data(#"{"x":1}"#, app: Self.app, channels: ["private-encrypted-foo"])
        let secret = PusherSignatures.sharedSecret(channel: "private-encrypted-foo", masterKey: [UInt8](repeating: 1, count: 32))
        let plain = try PusherEncryptedPayload.decrypt(.string(sent), sharedSecret: secret).get()
        #expect(String(decoding: plain, as: UTF8.self) == #"{"x":1}"#)
        #expect(try JSONValue.parse(sent).objectValue?.map(\.key) == ["nonce", "ciphertext"])
        #expect(try PusherTriggerEncryption.data("plain", app: Self.app, channels: ["private-foo", "news"]) == "plain")
    }

    @Test func severalChannelsWithAnEncryptedOneOrNoMasterKeyAreRefused() {
        #expect(throws: PusherSuiteError.self) { try PusherTriggerEncryption.data("x", app: Self.app, channels: ["private-encrypted-a", "news"]) }
        #expect(throws: PusherSuiteError.self) {
            try PusherTriggerEncryption.data("x", app: PusherApp(id: "2", key: "k2", secret: "s"), channels: ["private-encrypted-a"])
        }
    }

    @Test func everyCaseAppHasAMasterKeyUnlessTheCaseAsksForNone() {
        let cases = PusherCatalog.all()
        let keyless = cases.filter { PusherRunner.app(for: $0).options.encryptionMasterKey == nil }.map(\.id)
        #expect(keyless == ["pusher.encrypted.no-master-key"])
        #expect(cases.filter { $0.group == "encrypted" }.allSatisfy { $0.requires.isSuperset(of: [.encryptedChannels, .privateChannels]) })
    }
}
