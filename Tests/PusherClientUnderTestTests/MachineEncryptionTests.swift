// SPDX-License-Identifier: MIT
import HarnessJSON
import PusherCrypto
import Testing
@testable import PusherClientUnderTest

/// Encrypted channels in the pure machine: the shared secret from the authorization, decryption,
/// one key refresh after a failure, drops, and client events refused.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MachineEncryptionTests {
    static let channel = "private-encrypted-room"
    static let key = [UInt8](repeating: 7, count: 32)
    static let otherKey = [UInt8](repeating: 9, count: 32)

    static func event(_ name: String, _ data: String, key: [UInt8] = key) -> String {
        let payload = PusherEncryptedPayload.encrypt(data, sharedSecret: key) ?? ""
        return JSONValue.object([("event", .string(name)), ("channel", .string(channel)), ("data", .string(payload))]).jsonText
    }

    /// Connected, subscribed to the channel with `secret`.
    static func subscribed(secret: [UInt8]? = key) -> MachineHarness {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        h.feed(.subscribe(channel: channel))
        h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: channel, socketID: "1.1"),
                                      .success(PusherChannelAuthorization(auth: "k:sig", sharedSecret: secret))))
        h.feed(.socketText(MachineHarness.succeeded(channel)))
        return h
    }

    @Test func eventsArriveDecryptedAndTheSecretIsNeverSent() {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        h.feed(.subscribe(channel: Self.channel))
        let subscribe = h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: Self.channel, socketID: "1.1"),
                                                      .success(PusherChannelAuthorization(auth: "k:sig", sharedSecret: Self.key))))
        #expect(subscribe.sent == [#"{"event":"pusher:subscribe","data":{"channel":"private-encrypted-room","auth":"k:sig"}}"#])
        h.feed(.socketText(MachineHarness.succeeded(Self.channel)))
        let actions = h.feed(.socketText(Self.event("secret", #"{"text":"hidden"}"#)))
        #expect(actions.emitted.last == .event(PusherEventMessage(name: "secret", channel: Self.channel, data: ["text": "hidden"], rawData: #"{"text":"hidden"}"#)))
    }

    @Test func anAuthorizationWithoutSharedSecretFailsTheSubscription() {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        h.feed(.subscribe(channel: Self.channel))
        let actions = h.feed(.authorizationFinished(PusherAuthorizationRequest(channelName: Self.channel, socketID: "1.1"),
                                                    .success(PusherChannelAuthorization(auth: "k:sig"))))
        #expect(actions.sent.isEmpty)
        #expect(actions.callbacks == [.subscriptionFailed(channel: Self.channel, error: .missingSharedSecret(channel: Self.channel))])
        #expect(h.machine.status(of: Self.channel) == .failed)
    }

    @Test func aWrongKeyAsksOnceForANewOneAndRetriesWithIt() {
        var h = Self.subscribed(secret: Self.otherKey)
        let first = h.feed(.socketText(Self.event("a", "1")))
        let refresh = PusherAuthorizationRequest(channelName: Self.channel, socketID: "1.1", refreshesKey: true)
        #expect(first.authorizations == [refresh])
        #expect(first.emitted.isEmpty)
        // A second failure while the request is out waits for the same answer.
        #expect(h.feed(.socketText(Self.event("b", "2"))).authorizations.isEmpty)
        let answered = h.feed(.authorizationFinished(refresh, .success(PusherChannelAuthorization(auth: "k:sig2", sharedSecret: Self.key))))
        #expect(answered.sent.isEmpty)
        #expect(answered.emitted.map { if case .event(let m) = $0 { m.name } else { "" } } == ["a", "b"])
        #expect(h.feed(.socketText(Self.event("c", "3"))).emitted.count == 1)
    }

    @Test func stillUndecryptableWithTheNewKeyIsDroppedAndReported() {
        var h = Self.subscribed(secret: Self.otherKey)
        h.feed(.socketText(Self.event("a", "1")))
        let refresh = PusherAuthorizationRequest(channelName: Self.channel, socketID: "1.1", refreshesKey: true)
        let answered = h.feed(.authorizationFinished(refresh, .success(PusherChannelAuthorization(auth: "k:sig", sharedSecret: Self.otherKey))))
        guard case .decryptionFailed(Self.channel, "a", _)? = answered.emitted.first, answered.emitted.count == 1 else {
            Issue.record("expected one decryptionFailed, got \(answered.emitted)")
            return
        }
        // A refused refresh drops the waiting events too.
        h.feed(.socketText(Self.event("b", "2")))
        let refused = h.feed(.authorizationFinished(refresh, .failure(.status(403, body: "no"))))
        #expect(refused.emitted.count == 1)
    }

    @Test func aPayloadOfTheWrongShapeIsDroppedWithoutARefresh() {
        var h = Self.subscribed()
        let text = #"{"event":"x","channel":"private-encrypted-room","data":"plain text"}"#
        let actions = h.feed(.socketText(text))
        #expect(actions.authorizations.isEmpty)
        guard case .decryptionFailed(Self.channel, "x", _)? = actions.emitted.last else {
            Issue.record("expected decryptionFailed, got \(actions.emitted)")
            return
        }
    }

    @Test func clientEventsAreNotSentOnEncryptedChannels() {
        var h = Self.subscribed()
        #expect(h.feed(.trigger(event: "client-x", data: ["n": 1], channel: Self.channel)).sent.isEmpty)
    }

    @Test func authorizerReadsTheSharedSecret() {
        let answer = #"{"auth":"k:sig","shared_secret":"8ziYucAATGLnsfmVQnRpKw1VkUgQbrB5CfEQheHpD0w="}"#
        guard case .success(let authorization) = PusherHTTPAuthorizer.read(statusCode: 200, body: Array(answer.utf8)) else {
            Issue.record("refused \(answer)")
            return
        }
        #expect(authorization.sharedSecret?.count == 32)
        #expect(PusherHTTPAuthorizer.read(statusCode: 200, body: Array(#"{"auth":"k:sig","shared_secret":"***"}"#.utf8))
            == .failure(.malformedResponse(#""shared_secret" is not base64"#)))
    }
}
