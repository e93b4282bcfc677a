// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher
import PusherServer

/// End-to-end encrypted channels (spec §4.3): the runner gives every case's app an encryption master
/// key, the harness's auth endpoint answers `shared_secret`, and its triggers encrypt as the HTTP
/// libraries do; the client must decrypt, re-authorize once when it cannot, and never send client
/// events on these channels.
extension PusherCatalog {
    static let secretRoom = "private-encrypted-room"

    static var appWithoutMasterKey: PusherCase {
        var testCase = PusherCase(
            "pusher.encrypted.no-master-key", "an app without a master key: the auth answer has no shared_secret, the subscription fails",
            spec: "§4.3",
            steps: connected + [.subscribe(secretRoom), .expectSubscriptionError(secretRoom, withinMs: 2_000),
                                .expectNotSubscribed(secretRoom, forMs: 300), .expectJournal(.neverSent(event: "pusher:subscribe"), withinMs: 500)],
            requires: [.encryptedChannels, .privateChannels])
        testCase.appHasMasterKey = false
        return testCase
    }

    static let encrypted: [PusherCase] = [
        PusherCase("pusher.encrypted.decrypted-event", "a trigger on an encrypted channel arrives decrypted with the auth answer's shared_secret",
                   spec: "§4.3",
                   steps: connected + [.subscribe(secretRoom), .expectSubscribed(secretRoom, withinMs: 2_000),
                                       .trigger(secretRoom, "secret", #"{"text":"hidden"}"#),
                                       .expectEvent(channel: secretRoom, event: "secret", data: ["text": "hidden"], withinMs: 2_000),
                                       .expectJournal(.authorizedTimes(channel: secretRoom, times: 1), withinMs: 500)],
                   requires: [.encryptedChannels, .privateChannels]),
        PusherCase("pusher.encrypted.sequence", "several events on an encrypted channel, each with its own nonce, all arrive decrypted",
                   spec: "§4.3",
                   steps: connected + [.subscribe(secretRoom), .expectSubscribed(secretRoom, withinMs: 2_000),
                                       .trigger(secretRoom, "step", #"{"n":1}"#), .trigger(secretRoom, "step", #"{"n":2}"#),
                                       .trigger(secretRoom, "other", #"["a","b"]"#),
                                       .expectEvent(channel: secretRoom, event: "step", data: ["n": 1], withinMs: 2_000),
                                       .expectEvent(channel: secretRoom, event: "step", data: ["n": 2], withinMs: 1_000),
                                       .expectEvent(channel: secretRoom, event: "other", data: ["a", "b"], withinMs: 1_000)],
                   requires: [.encryptedChannels, .privateChannels]),
        PusherCase("pusher.encrypted.wrong-key", "a wrong shared_secret: the event is not delivered and the channel is authorized once more",
                   spec: "§4.3", client: PusherClientSettings(wrongSharedSecret: true),
                   steps: connected + [.subscribe(secretRoom), .expectSubscribed(secretRoom, withinMs: 2_000),
                                       .trigger(secretRoom, "secret", #"{"text":"hidden"}"#),
                                       .expectJournal(.authorizedTimes(channel: secretRoom, times: 2), withinMs: 2_000),
                                       .expectNoEvent(event: "secret", forMs: 500)],
                   requires: [.encryptedChannels, .privateChannels]),
        PusherCase("pusher.encrypted.tampered", "a changed ciphertext is not delivered (one re-authorization); an intact event still is",
                   spec: "§4.3",
                   steps: connected + [.subscribe(secretRoom), .expectSubscribed(secretRoom, withinMs: 2_000),
                                       .trigger(secretRoom, "tampered", #"{"n":1}"#),
                                       .expectJournal(.authorizedTimes(channel: secretRoom, times: 2), withinMs: 2_000),
                                       .expectNoEvent(event: "tampered", forMs: 300),
                                       .trigger(secretRoom, "intact", #"{"n":2}"#),
                                       .expectEvent(channel: secretRoom, event: "intact", data: ["n": 2], withinMs: 2_000)],
                   requires: [.encryptedChannels, .privateChannels],
                   faultPlan: plan(PusherFaultRule(fault: .tamperCiphertext(channel: secretRoom, event: "tampered")))),
        PusherCase("pusher.encrypted.no-client-events", "the client sends no client event on an encrypted channel (refused locally)",
                   spec: "§3.6, §4.3",
                   steps: connected + [.subscribe(secretRoom), .expectSubscribed(secretRoom, withinMs: 2_000),
                                       .clientEventMayBeRefused(channel: secretRoom, event: "client-typing", data: ["n": 1]),
                                       .wait(ms: 300), .expectJournal(.neverSent(event: "client-typing"), withinMs: 500)],
                   requires: [.encryptedChannels, .privateChannels]),
        appWithoutMasterKey,
    ]
}
