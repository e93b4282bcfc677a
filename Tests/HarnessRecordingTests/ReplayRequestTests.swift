// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessPrimitives
import MockPubNubServer
import Foundation
import HarnessHTTPClient
import Testing
@testable import HarnessRecording

/// Building the replayed request without sockets: fresh keys and names, learned values, signatures.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5))), .offPool) struct ReplayRequestTests {
    static let recording = Recording(
        recorded: RecordingOrigin(upstream: "https://ps.pndsn.com", started: "2026-11-29T00:00:00Z", tool: "test"),
        keys: [RecordedKey(placeholder: "{sub-key-1}", kind: .subscribeKey, accessManager: true, publishKey: "{pub-key-1}"),
               RecordedKey(placeholder: "{pub-key-1}", kind: .publishKey), RecordedKey(placeholder: "{auth-1}", kind: .auth)],
        names: [RecordedName(kind: .channel, name: "room"), RecordedName(kind: .uuid, name: "alice"), RecordedName(kind: .group, name: "g")])
    static let identity = FreshIdentity(recording: recording, tag: "t3st1ng0")

    static func exchange(_ request: RecordedRequest, endpoint: String) -> RecordedExchange {
        RecordedExchange(id: 1, endpoint: endpoint, startedMs: 0, durationMs: 1, outcome: .answered, request: request, response: nil)
    }

    @Test func keysNamesAndLearnedValuesAreReplacedButNotInsideTheMessage() throws {
        let request = RecordedRequest(method: "GET", path: "/publish/{pub-key-1}/{sub-key-1}/0/room/0/%22room%2017000000000000000%22",
                                      query: [NameValue("uuid", "alice"), NameValue("auth", "{auth-1}"), NameValue("channel-group", "g,other")])
        let substitutions = Substitutions(["17000000000000000": "17959000000000000"])
        let built = try ReplayRequestBuilder.build(Self.exchange(request, endpoint: "publish"), identity: Self.identity,
                                                   substitutions: substitutions, now: 1, linked: nil).get()
        #expect(built.target == "/publish/pub-c-t3st1ng0-1/sub-c-t3st1ng0-1/0/t3st1ng0_room/0/%22room%2017959000000000000%22"
                + "?uuid=t3st1ng0_alice&auth=auth-t3st1ng0-1&channel-group=t3st1ng0_g%2Cother")
    }

    @Test func presenceChannelsAndBodiesGetFreshNames() throws {
        let request = RecordedRequest(method: "PATCH", path: "/v2/objects/{sub-key-1}/uuids/alice/channels",
                                      headers: [NameValue("Content-Type", "application/json"), NameValue("If-Match", "etag-1")],
                                      body: #"{"set":[{"channel":{"id":"room"}}],"note":"room"}"#)
        let built = try ReplayRequestBuilder.build(Self.exchange(request, endpoint: "objects"), identity: Self.identity,
                                                   substitutions: Substitutions(["etag-1": "etag-2"]), now: 1, linked: nil).get()
        #expect(built.target == "/v2/objects/sub-c-t3st1ng0-1/uuids/t3st1ng0_alice/channels")
        #expect(built.headers["If-Match"] == "etag-2")
        #expect(built.body.map { String(decoding: $0, as: UTF8.self) } == #"{"set":[{"channel":{"id":"t3st1ng0_room"}}],"note":"t3st1ng0_room"}"#)
        let subscribe = RecordedRequest(method: "GET", path: "/v2/subscribe/{sub-key-1}/room,room-pnpres/0")
        #expect(ReplayRequestBuilder.mapPath(subscribe.path, identity: Self.identity, substitutions: Substitutions())
                == "/v2/subscribe/sub-c-t3st1ng0-1/t3st1ng0_room,t3st1ng0_room-pnpres/0")
        #expect(Self.identity.mapBack(#"{"c":"t3st1ng0_room-pnpres","k":"sub-c-t3st1ng0-1"}"#) == #"{"c":"room-pnpres","k":"{sub-key-1}"}"#)
    }

    @Test func aSignedRequestIsSignedAgainWithTheReplaysSecretAsTheMockChecksIt() async throws {
        let request = RecordedRequest(method: "POST", path: "/v3/pam/{sub-key-1}/grant",
                                      query: [NameValue("timestamp", "1"), NameValue("signature", "v2.{signature-1}"), NameValue("uuid", "alice")],
                                      headers: [NameValue("Content-Type", "application/json")],
                                      body: #"{"ttl":5,"permissions":{"resources":{"channels":{"room":3},"groups":{},"uuids":{}},"patterns":{"channels":{},"groups":{},"uuids":{}},"meta":{}}}"#)
        let identity = Self.identity
        let server = try RecordingHarness.startUpstream(keysets: [
            Keyset(subscribeKey: identity.values["{sub-key-1}"]!, publishKey: identity.publishKeys["{sub-key-1}"]!,
                   secretKey: identity.secrets["{sub-key-1}"]!),
        ])
        defer { server.stop() }
        let now = Int64(Date().timeIntervalSince1970)
        let built = try ReplayRequestBuilder.build(Self.exchange(request, endpoint: "grant-token"), identity: identity,
                                                   substitutions: Substitutions(), now: now, linked: nil).get()
        #expect(built.target.contains("timestamp=\(now)&signature=v2."))
        let client = try HTTPClient(host: "127.0.0.1", port: try #require(server.address).port, trust: nil, userAgent: "test")
        let answer = try await client.perform(HTTPClientRequest(method: built.method, target: built.target, body: built.body,
                                                                contentType: built.contentType), timeout: TestTime.budget(10)).get()
        #expect(answer.statusCode == 200, "\(String(decoding: answer.body, as: UTF8.self))")
    }
}
