// SPDX-License-Identifier: MIT
import HarnessTesting
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Gzip as the live service: large answers of the compressing endpoints to clients that offer
/// gzip; never small ones or publish acks; the two gzip faults. Bodies inflated with zlib.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct CompressionEndToEndTests {
    /// Publishes `count` messages of about 100 bytes on `ch` of `key`.
    static func fill(port: Int, key: String, count: Int) throws {
        let message = "%22" + String(repeating: "x", count: 100) + "%22"
        for _ in 0..<count {
            let answer = try EndToEnd.response(port: port, EndToEnd.publish(key, message: message))
            #expect(answer.status == 200)
        }
    }

    static func history(_ key: String, acceptEncoding: String?) -> String {
        var text = "GET /v2/history/sub-key/\(key)/channel/ch?count=100&uuid=u1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if let acceptEncoding { text += "Accept-Encoding: \(acceptEncoding)\r\n" }
        return text + "Connection: close\r\n\r\n"
    }

    @Test func aLargeHistoryAnswerIsGzippedForAClientOfferingIt() async throws {
        try await EndToEnd.run { _, port in
            try Self.fill(port: port, key: "sub-k", count: 20)
            let plain = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: nil))
            #expect(plain.head.header("Content-Encoding") == nil)
            #expect(plain.body.count > 1024)
            let zipped = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: "gzip, deflate, br"))
            #expect(zipped.head.header("Content-Encoding") == "gzip")
            #expect(zipped.head.header("Vary") == "Accept-Encoding")
            #expect(zipped.head.header("Access-Control-Allow-Origin") == "*")
            #expect(zipped.body.count < plain.body.count)
            let inflated = try ContentDecoding.inflate(zipped.body, limit: 1 << 20).get()
            #expect(inflated.count == plain.body.count)
            let same = inflated == plain.body  // a Bool, not a diff of two large arrays
            #expect(same, "the inflated body is the plain answer's")
            let refused = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: "gzip;q=0, identity"))
            #expect(refused.head.header("Content-Encoding") == nil)
        }
    }

    @Test func smallAnswersAndPublishAcksAreNeverCompressed() async throws {
        try await EndToEnd.run { _, port in
            try Self.fill(port: port, key: "sub-k", count: 1)
            let small = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: "gzip"))
            #expect(small.head.header("Content-Encoding") == nil)
            let ack = try CrossOrigin.sendRaw(port: port,
                "GET \(EndToEnd.publish("sub-k")) HTTP/1.1\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n")
            #expect(ack.head.header("Content-Encoding") == nil)
        }
    }

    @Test func theThresholdAndTheSwitchAreHonoured() async throws {
        try await EndToEnd.run(configure: { $0.responses.compression.thresholdBytes = 10 }) { _, port in
            try Self.fill(port: port, key: "sub-k", count: 1)
            let small = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: "gzip"))
            #expect(small.head.header("Content-Encoding") == "gzip")
        }
        try await EndToEnd.run(configure: { $0.responses.compression.enabled = false }) { _, port in
            try Self.fill(port: port, key: "sub-k", count: 20)
            let large = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: "gzip"))
            #expect(large.head.header("Content-Encoding") == nil)
        }
    }

    @Test func truncatedAndCorruptGzipFaultsFailToInflate() async throws {
        try await EndToEnd.run { server, port in
            try Self.fill(port: port, key: "sub-k", count: 3)
            let plain = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: nil))
            try EndToEnd.install(server, "sub-k", EndToEnd.plan(match: #"{"endpoint":"history"}"#, fault: #"{"kind":"truncated-gzip"}"#))
            let cut = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: "gzip"))
            #expect(cut.head.header("Content-Encoding") == "gzip")
            #expect(cut.head.header("Content-Length") == String(cut.body.count))
            #expect(ContentDecoding.inflate(cut.body, limit: 1 << 20) == .failure(.corrupt))
            let whole = AnswerCompression.gzip(plain.body) ?? []
            #expect(cut.body.count < whole.count && cut.body.count >= whole.count / 2 - 1)
            try EndToEnd.install(server, "sub-k", EndToEnd.plan(match: #"{"endpoint":"history"}"#, fault: #"{"kind":"corrupt-gzip"}"#))
            let corrupt = try CrossOrigin.sendRaw(port: port, Self.history("sub-k", acceptEncoding: nil))
            #expect(corrupt.head.header("Content-Encoding") == "gzip")
            #expect(ContentDecoding.inflate(corrupt.body, limit: 1 << 20) == .failure(.corrupt))
        }
    }
}
