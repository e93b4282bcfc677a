// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
import HarnessJSON
import HarnessRecording
import MockPubNubServer
import Testing

/// A recording of a "newer service" — a scripted server of the test's own that answers as the
/// mock does, except for an extra field, another Content-Type and a gzip body — verified against
/// the mock: each change is found, by JSON path or header, and the unchanged exchanges pass.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5))), .offPool) struct NewerServiceTests {
    static let subscribeKey = "sub-c-newer-7f3a9c01"
    static let publishKey = "pub-c-newer-2b8d4e66"
    static let authKey = "authkey-secret-42"
    static let session = "sess-secret-998877"
    static let customKey = "custom-header-secret-5511"

    /// The newer service: the reference mock's answer, changed for three paths.
    static func newerService(reference: HTTPClient) throws -> ScriptedServer {
        try ScriptedServer { seen in
            let request = HTTPClientRequest(method: seen.method, target: seen.target, body: seen.body.isEmpty ? nil : seen.body)
            guard case .success(let answer) = reference.performBlocking(request, timeout: 10) else { return .close }
            var headers = answer.headers.filter { !["content-length", "connection", "transfer-encoding"].contains($0.name) }
            var body = answer.body
            if seen.path == "/time/0" {
                headers = headers.map { $0.name == "content-type" ? (name: $0.name, value: "application/json") : $0 }
            } else if seen.path.hasSuffix("/heartbeat"), case .object(let object)? = try? JSONValue.parse(body) {
                body = JSONValue.object(JSONObject(object.map { ($0.key, $0.value) } + [("region", .string("eu-central"))])).jsonBytes
            } else if seen.path.hasPrefix("/v3/history/"), let zipped = AnswerCompression.gzip(body) {
                body = zipped
                headers += [(name: "content-encoding", value: "gzip"), (name: "vary", value: "Accept-Encoding")]
            }
            var head = "HTTP/1.1 \(answer.statusCode) OK\r\n"
            for field in headers { head += "\(field.name): \(field.value)\r\n" }
            head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            return .bytes(Array(head.utf8) + body)
        }
    }

    @Test func eachChangeOfANewerServiceIsFoundByPathAndTheRestPasses() async throws {
        let reference = try RecordingHarness.startUpstream()
        defer { reference.stop() }
        let referenceClient = try HTTPClient(host: "127.0.0.1", port: try #require(reference.address).port, trust: nil, userAgent: "reference")
        let newer = try Self.newerService(reference: referenceClient)
        defer { newer.stop() }
        let output = RecordingHarness.temporaryPath("newer.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let proxy = try RecordingHarness.startProxy(upstream: "http://127.0.0.1:\(newer.port)", output: output,
                                                    redact: ["session", "X-Custom-Key"])
        let client = try HTTPClient(host: "127.0.0.1", port: try #require(proxy.address).port, trust: nil, userAgent: "test")
        let sub = Self.subscribeKey, pub = Self.publishKey
        let targets = [
            "/time/0?uuid=u-1",
            "/publish/\(pub)/\(sub)/0/ch-new/0/%22hi%22?uuid=u-1&auth=\(Self.authKey)&session=\(Self.session)",
            "/v2/presence/sub-key/\(sub)/channel/ch-new/heartbeat?uuid=u-1&heartbeat=60",
            "/v3/history/sub-key/\(sub)/channel/ch-new?max=25&uuid=u-1",
            "/v2/history/sub-key/\(sub)/channel/ch-new?uuid=u-1",
        ]
        for target in targets {
            let request = HTTPClientRequest(target: target, headers: ["Accept-Encoding": "gzip", "X-Custom-Key": Self.customKey])
            let answer = await client.perform(request, timeout: TestTime.budget(10))
            #expect((try? answer.get().statusCode) == 200, "\(target)")
        }
        await proxy.shutdown()

        let (text, recording) = try RecordingHarness.read(output)
        for secret in [sub, pub, Self.authKey, Self.session, Self.customKey] {
            #expect(!text.contains(secret), "the recording holds a secret in clear: \(secret)")
        }
        let publish = try #require(recording.exchanges.first { $0.endpoint == "publish" })
        #expect(publish.request.path == "/publish/{pub-key-1}/{sub-key-1}/0/ch-new/0/%22hi%22")
        #expect(publish.request.queryValue("auth") == "{auth-1}")
        // The header came first (on the time request), the same placeholder every time after.
        #expect(publish.request.header("X-Custom-Key") == "{redacted-1}")
        #expect(recording.exchanges.allSatisfy { $0.request.header("X-Custom-Key") == "{redacted-1}" })
        #expect(publish.request.queryValue("session") == "{redacted-2}")
        let fetch = try #require(recording.exchanges.first { $0.endpoint == "fetch-messages" })
        #expect(fetch.response?.header("Content-Encoding") == "gzip")
        #expect(fetch.response?.body?.hasPrefix("{\"status\": 200") == true, "bodies are stored without their coding")

        let verdicts = try await RecordingHarness.verify(recording)
        func differences(_ endpoint: String) -> [Difference] {
            verdicts.first { $0.endpoint == endpoint }?.differences ?? []
        }
        #expect(differences("time").map(\.path) == ["header Content-Type"])
        #expect(differences("time").first?.recorded == "application/json")
        #expect(differences("time").first?.actual == "text/javascript; charset=\"UTF-8\"")
        #expect(differences("heartbeat").map(\.path) == ["$.region"])
        #expect(differences("heartbeat").first?.kind == .missing)
        #expect(differences("heartbeat").first?.recorded == "\"eu-central\"")
        #expect(differences("fetch-messages").map(\.path) == ["header Content-Encoding"])
        #expect(verdicts.first { $0.endpoint == "publish" }?.outcome == .pass)
        #expect(verdicts.first { $0.endpoint == "history" }?.outcome == .pass)
        let failing = try #require(verdicts.first { $0.endpoint == "heartbeat" })
        #expect(failing.recordedAnswer?.contains("eu-central") == true && failing.replayedAnswer?.contains("eu-central") == false)
    }
}
