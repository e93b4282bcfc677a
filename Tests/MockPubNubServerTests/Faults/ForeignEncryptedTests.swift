// SPDX-License-Identifier: MIT
import HarnessJSON
import PubNubCrypto
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ForeignEncryptedTests {
    /// The `d` of the single message a `foreign-encrypted` fault answers with, using the default encryptor.
    private func payload(_ fault: Fault) throws -> String {
        let layer = FaultLayer(upstream: FakeUpstream(response: nil), scheduler: ManualScheduler())
        try layer.installPlan(FaultFixtures.plan([FaultRule(id: "r", fault: fault)]), for: "sk")
        let sink = ActionSink()
        layer.handle(FaultFixtures.request("GET", "/v2/subscribe/sk/c/0?tt=5&tr=2"), context: FaultFixtures.context(), responder: sink.responder())
        guard case .respond(let response)? = sink.all.first, response.status == 200 else {
            Issue.record("expected a 200, got \(sink.all)")
            return ""
        }
        let json = try JSONValue.parse(response.body)
        guard case .array(let messages)? = json["m"], messages.count == 1, case .string(let ciphertext)? = messages[0]["d"] else {
            Issue.record("expected one message with a string payload: \(FaultFixtures.text(response.body))")
            return ""
        }
        return ciphertext
    }

    @Test(arguments: [CryptoScheme.legacy, .legacyRandomIV, .aesCBC])
    func messageDecryptsOnlyWithTheFaultsKey(scheme: CryptoScheme) throws {
        let ciphertext = try payload(.foreignEncrypted(cipherKey: "foreign-key", scheme: scheme.rawValue, message: "{\"a\":1}"))
        #expect(try CryptoModule(cipherKey: "foreign-key", scheme: scheme).decryptMessage(ciphertext) == "{\"a\":1}")
    }

    @Test func defaultsAreAESCBCAndTheStockMessage() throws {
        let ciphertext = try payload(.foreignEncrypted(cipherKey: "k2", scheme: nil, message: nil))
        #expect(try CryptoModule(cipherKey: "k2", scheme: .aesCBC).decryptMessage(ciphertext) == FaultExecutor.foreignMessage)
        // The PNED header marks the CryptoModule format: base64 of "PNED" is "UE5FRA".
        #expect(ciphertext.hasPrefix("UE5FRA"))
    }
}
