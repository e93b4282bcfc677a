// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import HarnessJSON
import Glibc
#endif
import Foundation
import Synchronization
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A full `MockServer` on loopback port 0 for end-to-end fault tests, driven by raw socket clients.
///
/// The body runs on a dedicated thread (its socket calls block), and the server is stopped when it
/// returns or throws.
enum EndToEnd {
    static func run<T: Sendable>(
        tls: Bool = false, configure: @escaping @Sendable (inout MockServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (MockServer, Int) throws -> T
    ) async throws -> T {
        let result: Result<T, any Error> = await TestSockets.onDedicatedThread {
            Result {
                var configuration = MockServerConfiguration.loopback(tls: tls)
                configure(&configuration)
                let server = try MockServer(configuration: configuration)
                defer { server.stop() }
                let address = try server.start()
                return try body(server, address.port)
            }
        }
        return try result.get()
    }

    /// Installs `json` for `key` through the in-process API.
    static func install(_ server: MockServer, _ key: String, _ json: String) throws {
        _ = try server.installPlan(json: Array(json.utf8), subscribeKey: key)
    }

    /// A plan with one rule: `match` (JSON object text, or nil) and `fault` (JSON object text), plus `extra` rule fields.
    static func plan(match: String? = nil, fault: String, extra: String = "") -> String {
        let matchPart = match.map { "\"match\":\($0)," } ?? ""
        let extraPart = extra.isEmpty ? "" : "\(extra),"
        return #"{"rules":[{"id":"r",\#(matchPart)\#(extraPart)"fault":\#(fault)}]}"#
    }

    /// `GET target` as a keep-alive HTTP/1.1 request.
    static func get(_ target: String) -> String {
        "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    }

    /// A raw request/response exchange with a fresh connection: sends `request`, reads until the
    /// server ends the stream or stays silent for `silenceMs`.
    static func exchange(port: Int, _ request: String, silenceMs: Int32 = 2000) throws
        -> (bytes: [UInt8], end: BlockingTestClient.End)
    {
        let client = try BlockingTestClient(port: port)
        client.send(request)
        return client.readToEnd(timeoutMs: silenceMs)
    }

    /// One complete `Content-Length`-framed response on a fresh connection.
    static func response(port: Int, _ target: String) throws -> HTTPResponseText {
        let client = try BlockingTestClient(port: port)
        client.send(get(target))
        guard let text = client.readResponse(timeoutMs: TestTime.budgetMs(3000)) else {
            throw BlockingTestClient.ClientError(description: "no complete response to \(target)")
        }
        return HTTPResponseText(Array(text.utf8))
    }

    /// A publish target for `key` on `channel`.
    static func publish(_ key: String, channel: String = "ch", message: String = "%22hi%22", uuid: String = "u1") -> String {
        "/publish/pub-\(key)/\(key)/0/\(channel)/0/\(message)?uuid=\(uuid)"
    }

    /// A subscribe target for `key`.
    static func subscribe(_ key: String, channels: String = "ch", tt: String = "0", extra: String = "", uuid: String = "u1") -> String {
        "/v2/subscribe/\(key)/\(channels)/0?tt=\(tt)&uuid=\(uuid)\(extra)"
    }
}

/// Reads the parts of a subscribe answer `{"t":{"t":"…","r":N},"m":[…]}` the tests look at.
enum SubscribeBody {
    struct ShapeError: Error, CustomStringConvertible {
        let description: String
    }

    static func cursor(_ body: [UInt8]) throws -> String {
        guard case .string(let cursor)? = try JSONValue.parse(body)["t"]?["t"] else { throw shape(body) }
        return cursor
    }

    static func region(_ body: [UInt8]) throws -> String {
        guard case .number(let region)? = try JSONValue.parse(body)["t"]?["r"] else { throw shape(body) }
        return region
    }

    static func messages(_ body: [UInt8]) throws -> [JSONValue] {
        guard case .array(let messages)? = try JSONValue.parse(body)["m"] else { throw shape(body) }
        return messages
    }

    private static func shape(_ body: [UInt8]) -> ShapeError {
        ShapeError(description: "not a subscribe answer: \(String(decoding: body, as: UTF8.self))")
    }
}

/// Publishes for two keys at the same time from two threads, each on its own connections.
struct ParallelRequests {
    let port: Int

    /// The statuses of `count` publishes for each key (-1 where a request failed), bounded at 20 s.
    func run(_ count: Int, _ keyA: String, _ keyB: String) -> ([Int], [Int]) {
        let results = Mutex<[String: [Int]]>([:])
        let done = DispatchSemaphore(value: 0)
        let port = port
        for key in [keyA, keyB] {
            Thread {
                let statuses = (0..<count).map { _ in (try? status(port, EndToEnd.publish(key))) ?? -1 }
                results.withLock { $0[key] = statuses }
                done.signal()
            }.start()
        }
        for _ in 0..<2 { _ = done.wait(timeout: .now() + TestTime.budget(20)) }
        return results.withLock { ($0[keyA] ?? [], $0[keyB] ?? []) }
    }
}
