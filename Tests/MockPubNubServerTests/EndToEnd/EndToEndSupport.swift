// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A `MockServer` on 127.0.0.1, port 0, for tests over real loopback sockets.
final class EndToEndServer {
    let server: MockServer
    let port: Int

    init(keysets: [Keyset] = [], longPollIdleTimeout: Duration = .seconds(280), files: FileServiceSettings = FileServiceSettings(),
         features: KeyFeatures = KeyFeatures()) throws {
        var configuration = MockServerConfiguration()
        configuration.files = files
        configuration.keyFeatures = features
        configuration.keysets = keysets
        configuration.longPollIdleTimeout = longPollIdleTimeout
        configuration.eventLoopCount = 2
        server = try MockServer(configuration: configuration)
        port = try server.start().port
    }

    deinit { server.stop() }

    /// Opens a keep-alive connection.
    func connect() throws -> BlockingTestClient { try BlockingTestClient(port: port) }

    /// Sends one request on a new connection (`Connection: close`) and returns the raw response.
    func raw(_ target: String, method: String = "GET", body: String? = nil, timeoutMs: Int32 = TestTime.budgetMs(5000)) throws -> String {
        let client = try connect()
        client.send(Self.request(target, method: method, body: body, close: true))
        return withoutCrossOrigin(String(decoding: client.readToEnd(timeoutMs: timeoutMs).bytes, as: UTF8.self), method, target)
    }

    /// One request; the status code and the body.
    func call(_ target: String, method: String = "GET", body: String? = nil, timeoutMs: Int32 = TestTime.budgetMs(5000)) throws -> (Int, String) {
        try EndToEndServer.split(raw(target, method: method, body: body, timeoutMs: timeoutMs))
    }

    /// Publishes `message` (JSON text) by GET; returns the timetoken of the `Sent` answer.
    @discardableResult
    func publish(_ channel: String, _ message: String, key: String = "demo", query: String = "uuid=pub") throws -> UInt64 {
        let (status, body) = try call("/publish/\(key)/\(key)/0/\(channel)/0/\(PercentDecoding.encode(message))?\(query)")
        #expect(status == 200, "\(body)")
        return try #require(EndToEndServer.sentTimetoken(body))
    }

    static func request(_ target: String, method: String = "GET", body: String? = nil, close: Bool = false) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        if close { text += "Connection: close\r\n" }
        return text + "\r\n" + (body ?? "")
    }

    /// `(status, body)` of a raw response (0 and the whole text when it is not HTTP).
    static func split(_ response: String) -> (Int, String) {
        let parsed = HTTPResponseText(response)
        return parsed.status == 0 ? (0, response) : (parsed.status, parsed.bodyText)
    }

    /// The timetoken of `[1,"Sent","TT"]`.
    static func sentTimetoken(_ body: String) -> UInt64? {
        guard body.hasPrefix("[1,\"Sent\",\""), body.hasSuffix("\"]") else { return nil }
        return UInt64(body.dropFirst(11).dropLast(2))
    }

    /// The cursor `t.t` of a subscribe body.
    static func cursor(_ body: String) -> UInt64? {
        guard let object = json(body) as? [String: Any], let t = object["t"] as? [String: Any],
              let text = t["t"] as? String else { return nil }
        return UInt64(text)
    }

    /// The envelopes `m` of a subscribe body.
    static func envelopes(_ body: String) -> [[String: Any]] {
        ((json(body) as? [String: Any])?["m"] as? [[String: Any]]) ?? []
    }

    static func json(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }
}

/// The exact bytes of a PubNub-style response of the mock server.
func pubNubResponse(_ status: Int, _ body: String, close: Bool = true,
                    contentType: String = "text/javascript; charset=\"UTF-8\"") -> String {
    let reasons = [200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 413: "Content Too Large",
                   414: "URI Too Long", 431: "Request Header Fields Too Large"]
    let reason = reasons[status] ?? "?"
    return "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\n"
        + "Content-Length: \(body.utf8.count)\r\nConnection: \(close ? "close" : "keep-alive")\r\n\r\n\(body)"
}

/// `response` (the raw answer to `method target`) with the fields every answer of the mock
/// carries for browsers (the `PubNubCORS` rule of the request after the handler's fields, or the
/// fallback rule's on an answer to a request that did not parse, and one `Date` line) checked and
/// taken out, so that an exact comparison sees the handler's own head. A response without them
/// fails the test (the CrossOrigin tests check them byte for byte).
func withoutCrossOrigin(_ response: String, _ method: String = "GET", _ target: String) -> String {
    guard let end = response.range(of: "\r\n\r\n"), response.hasPrefix("HTTP/1.1 ") else { return response }
    let lines = CrossOrigin.undated(String(response[..<end.lowerBound])).components(separatedBy: "\r\n")
    let policy = PubNubCORS.policy
    let rules = [policy.ruleIndex(for: HTTPRequest(method: method, target: target)), policy.rules.count]
    for rule in rules {
        for withCacheControl in [true, false] {
            let block = String(decoding: policy.encodedFields(rule: rule, withCacheControl: withCacheControl), as: UTF8.self)
                .components(separatedBy: "\r\n").dropLast()
            guard let start = lines.indices.first(where: { lines[$0...].starts(with: block) }) else { continue }
            let kept = lines[..<start] + lines[(start + block.count)...]
            return kept.joined(separator: "\r\n") + String(response[end.lowerBound...])
        }
    }
    Issue.record("no cross-origin fields of rule \(rules[0]) in \(lines.joined(separator: " | "))")
    return response
}
