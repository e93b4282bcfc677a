// SPDX-License-Identifier: MIT

/// Encryption (spec crypto.md, §11.3 decryption errors): encrypted publish, subscribe and
/// history for every scheme, and decryption failures.
enum EncryptionSuite {
    static let schemes = ["legacy", "legacy-random-iv", "aescbc"]
    static let needs: Set<Capability> = [.encryption]

    static func client(_ scheme: String) -> ClientOverrides {
        ClientOverrides(cipherKey: "enigma", cipherScheme: scheme)
    }

    static var cases: [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for scheme in schemes {
            cases.append(ConformanceCase(
                "encryption.roundtrip.\(scheme)", "With \(scheme), a published message is encrypted on the wire and decrypted on delivery", spec: "crypto §1-§3",
                client: client(scheme),
                steps: [.subscribe(["ch-e"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .publish("ch-e", ["secret": "plans"]), .expectMessage("ch-e", ["secret": "plans"]),
                        .expectJournal(.pathContains(endpoint: "publish", substring: "plans", false), withinMs: 0)],
                expected: [.connected, .acknowledgment], requires: needs))
            cases.append(ConformanceCase(
                "encryption.history.\(scheme)", "With \(scheme), history returns decrypted messages", spec: "crypto §1-§3",
                client: client(scheme),
                steps: [.publish("ch-e", "first"), .publish("ch-e", ["n": 2]),
                        .perform(.history(channel: "ch-e")), .expectResult(.success(["messages": [["message": "first"], ["message": ["n": 2]]]]))],
                expected: [.acknowledgment], requires: needs))
        }
        cases += [
            ConformanceCase(
                "encryption.fetch.aescbc", "With aescbc, fetch messages returns decrypted messages", spec: "crypto §3",
                client: client("aescbc"),
                steps: [.publish("ch-e", "fetched"), .perform(.fetchMessages(channels: ["ch-e"])),
                        .expectResult(.success(["channels": ["ch-e": [["message": "fetched"]]]]))],
                expected: [.acknowledgment], requires: needs.union([.history])),
            ConformanceCase(
                "encryption.decrypt-error.plain-message", "An unencrypted message to a client with a cipher key → PNDecryptionErrorCategory, raw message delivered", spec: "§11.3",
                client: client("legacy"),
                steps: [.subscribe(["ch-e"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .serverPublish(channel: "ch-e", message: "plain text"), .expect(.decryptionError),
                        .expectMessages([ExpectedMessage(channel: "ch-e", message: "plain text", decryptionFailed: true)], withinMs: 500)],
                expected: [.connected, .decryptionError], requires: needs),
            ConformanceCase(
                "encryption.decrypt-error.wrong-key", "A message encrypted with another key → PNDecryptionErrorCategory", spec: "§11.3",
                plan: PlanBuilder.onFirstLongPoll(["kind": "foreign-encrypted", "cipherKey": "other", "scheme": "aescbc", "message": #"{"x":1}"#]),
                client: client("aescbc"),
                steps: [.subscribe(["ch-e"]), .expect(.connected), .expect(.decryptionError)],
                expected: [.connected, .decryptionError], requires: needs),
            ConformanceCase(
                "encryption.decrypt-error.history", "History holding an unencrypted message → PNDecryptionErrorCategory", spec: "§11.3",
                client: client("legacy"),
                steps: [.serverPublish(channel: "ch-e", message: "plain text"), .perform(.history(channel: "ch-e")), .expect(.decryptionError, within: 100)],
                expected: [.decryptionError], requires: needs.union([.history])),
            ConformanceCase(
                "encryption.interop.legacy-to-aescbc", "A client on aescbc still decrypts legacy messages (CryptoModule fallback)", spec: "crypto §3",
                plan: PlanBuilder.onFirstLongPoll(["kind": "foreign-encrypted", "cipherKey": "enigma", "scheme": "legacy-random-iv", "message": #""legacy text""#]),
                client: client("aescbc"),
                steps: [.subscribe(["ch-e"]), .expect(.connected),
                        .expectMessages([ExpectedMessage(channel: "ch-e", message: "legacy text")], withinMs: 1_000)],
                expected: [.connected], requires: needs),
        ]
        return cases
    }
}
