// SPDX-License-Identifier: MIT
import ClientUnderTest
import Foundation
import HarnessRecording
import MockPubNubServer
import PubNubToken
import Testing

/// A client run through the recording proxy's TLS and plain listeners against an in-process mock
/// with Access Manager on: signed requests, a v3 token, a long-poll woken by a publish, history,
/// a file sent and downloaded through the proxy, App Context; then the recording is searched for
/// every secret and verified against a fresh mock.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5))), .offPool) struct RecordVerifyRoundTripTests {
    static let subscribeKey = "sub-c-roundtrip-0b5e1a7d"
    static let publishKey = "pub-c-roundtrip-93f0c2aa"
    static let secretKey = "sec-c-roundtrip-5d21e6f4"

    final class Collector: PubNubListener {
        let messages = Waitable<String>()
        let statuses = Waitable<String>()
        func client(_ client: PubNubClient, didReceiveMessage message: PNMessageEvent) { messages.append(message.message.jsonText) }
        func client(_ client: PubNubClient, didReceiveStatus status: PNStatus) { statuses.append(status.category.rawValue) }
    }

    @Test func aClientRunThroughTheProxyVerifiesCleanAndLeavesNoSecretInTheFile() async throws {
        let upstream = try RecordingHarness.startUpstream(keysets: [
            Keyset(subscribeKey: Self.subscribeKey, publishKey: Self.publishKey, secretKey: Self.secretKey),
        ])
        let output = RecordingHarness.temporaryPath("roundtrip.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let proxy = try RecordingHarness.startProxy(upstream: "http://127.0.0.1:\(try #require(upstream.address).port)", output: output)
        let tlsPort = try #require(proxy.tlsAddress).port
        let plainPort = try #require(proxy.address).port

        // The server side: signed with the secret key, over the proxy's TLS listener.
        var adminConfig = PubNubConfiguration(publishKey: Self.publishKey, subscribeKey: Self.subscribeKey, uuid: "server-side")
        adminConfig.secretKey = Self.secretKey
        adminConfig.origin = "127.0.0.1:\(tlsPort)"
        adminConfig.tlsEnabled = true
        adminConfig.trustedCA = .pem(proxy.certificateAuthorityPEM)
        let admin = try PubNubClient(configuration: adminConfig)
        _ = try await admin.time()
        let token = try await admin.grantToken(PNTokenGrant(ttl: 60, channels: ["room-1": [.read, .write]], authorizedUUID: "alice")).get()

        // The user side: the token as auth, over the plain listener; a long-poll a publish wakes.
        var userConfig = PubNubConfiguration(publishKey: Self.publishKey, subscribeKey: Self.subscribeKey, uuid: "alice")
        userConfig.origin = "127.0.0.1:\(plainPort)"
        userConfig.tlsEnabled = false
        userConfig.authToken = token
        let user = try PubNubClient(configuration: userConfig)
        let collector = Collector()
        user.addListener(collector)
        try await user.subscribe(channels: ["room-1"])
        #expect(await collector.statuses.wait(timeout: TestTime.budget(10)) { $0.contains("PNConnectedCategory") } != nil)
        _ = try await user.publish(["text": "hello"], channel: "room-1")
        #expect(await collector.messages.wait(timeout: TestTime.budget(10)) { $0.contains(#"{"text":"hello"}"#) } != nil)
        _ = try await admin.history(channel: "room-1")
        _ = try await admin.fetchMessages(channels: ["room-1"])
        let file = try await admin.sendFile(channel: "room-1", name: "note.txt", data: Array("file body".utf8))
        let downloaded = try await admin.downloadFile(channel: "room-1", fileID: file.id, fileName: file.name)
        #expect(downloaded.data == Array("file body".utf8))
        _ = try await admin.setUUIDMetadata(uuid: "alice", ["name": "Alice"])
        _ = try await admin.getUUIDMetadata(uuid: "alice")
        _ = await user.unsubscribeAll()
        await proxy.shutdown()
        await upstream.shutdown()

        let (text, recording) = try RecordingHarness.read(output)
        for secret in [Self.subscribeKey, Self.publishKey, Self.secretKey, token] {
            #expect(!text.contains(secret), "the recording holds a secret in clear: \(secret.prefix(12))…")
        }
        #expect(!text.contains("\"v2.") || !text.replacingOccurrences(of: "\"v2.{signature-", with: "").contains("\"v2."),
                "a signature in clear")
        let endpoints = Set(recording.exchanges.map(\.endpoint))
        for endpoint in ["time", "grant-token", "subscribe", "publish", "history", "fetch-messages", "generate-upload-url",
                         "storage-upload", "publish-file", "get-file", "storage-download", "objects", "leave"] {
            #expect(endpoints.contains(endpoint), "no \(endpoint) exchange recorded")
        }
        #expect(recording.keys.contains { $0.kind == .token && $0.tokenShape?.contains("res.chan.room-1") == true })
        #expect(recording.key("{sub-key-1}")?.accessManager == true)
        #expect(Set(recording.names.map(\.name)).isSuperset(of: ["room-1", "alice"]))
        let upload = try #require(recording.exchanges.first { $0.endpoint == "storage-upload" })
        #expect(upload.request.form?.contains { $0.name == "Policy" && $0.value?.hasPrefix("{policy-") == true } == true)
        #expect(upload.request.form?.contains { $0.filename == "note.txt" && $0.size == 9 } == true)

        let verdicts = try await RecordingHarness.verify(recording)
        #expect(RecordingHarness.problems(verdicts) == [])
        #expect(verdicts.count { $0.outcome == .pass } >= 14)
    }
}
