// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mock server in another process, controlled through its `/__admin/` routes.
///
/// Access Manager keysets cannot be created over `/__admin/` (they are given to
/// `pubnub-harness serve --keyset`), so ``registerKeyset(subscribeKey:publishKey:secretKey:)``
/// and ``grant(_:subscribeKey:)`` throw ``HarnessServerError/unsupported(_:)`` and the cases
/// needing them are skipped.
public struct AdminHTTPServer: HarnessServer {
    public let address: String
    public let tlsAddress: String?
    private let session: URLSession

    /// - Parameters:
    ///   - address: `host:port` of the server's plain listener.
    ///   - tlsAddress: `host:port` of its TLS listener, if any.
    public init(address: String, tlsAddress: String? = nil) {
        self.address = address
        self.tlsAddress = tlsAddress
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        self.session = URLSession(configuration: configuration)
    }

    public func caPEM() async throws -> String? {
        let (status, body) = try await send("GET", "/__admin/tls/ca", operation: "fetch CA")
        guard status == 200 else { return nil }
        // `{"caPEM": "-----BEGIN CERTIFICATE-----…"}`; a bare PEM body is accepted too.
        if let value = try? JSONValue.parse(Array(body)), let pem = value["caPEM"]?.stringValue { return pem }
        return String(decoding: body, as: UTF8.self)
    }

    public func installPlan(json: JSONValue, subscribeKey: String) async throws {
        try await expectOK(send("PUT", "/__admin/plans/\(Self.segment(subscribeKey))", body: Data(json.jsonText.utf8), operation: "install plan"), "install plan")
    }

    public func clearPlan(subscribeKey: String) async throws {
        let (status, body) = try await send("DELETE", "/__admin/plans/\(Self.segment(subscribeKey))", operation: "clear plan")
        guard (200..<300).contains(status) || status == 404 else {
            throw HarnessServerError.requestFailed(operation: "clear plan", detail: "HTTP \(status) \(String(decoding: body.prefix(200), as: UTF8.self))")
        }
    }

    public func journal(subscribeKey: String) async throws -> [JournalEntry] {
        let answer = try await send("GET", "/__admin/journal/\(Self.segment(subscribeKey))", operation: "journal")
        try expectOK(answer, "journal")
        // The admin API answers `{"subscribeKey", "lastSequence", "entries": [...]}`.
        struct Page: Decodable { var entries: [JournalEntry] }
        do {
            return try JSONDecoder().decode(Page.self, from: answer.body).entries
        } catch {
            throw HarnessServerError.invalidAnswer(operation: "journal", detail: "\(error)")
        }
    }

    public func openListener(fault: String) async throws -> Int {
        let body = Data(JSONValue.object(["fault": .string(fault)]).jsonText.utf8)
        let answer = try await send("POST", "/__admin/listeners", body: body, operation: "open listener \(fault)")
        try expectOK(answer, "open listener \(fault)")
        return try port(answer.body, "open listener \(fault)")
    }

    public func closeListener(port: Int) async throws {
        try await expectOK(send("DELETE", "/__admin/listeners/\(port)", operation: "close listener"), "close listener")
    }

    public func refusedPort() async throws -> Int {
        let answer = try await send("GET", "/__admin/refused-port", operation: "refused port")
        try expectOK(answer, "refused port")
        return try port(answer.body, "refused port")
    }

    public func registerKeyset(subscribeKey: String, publishKey: String, secretKey: String) async throws {
        throw HarnessServerError.unsupported("creating Access Manager keysets over /__admin/ (use serve --keyset)")
    }

    public func grant(_ grant: Grant, subscribeKey: String) async throws {
        throw HarnessServerError.unsupported("grants over /__admin/")
    }

    public func request(method: String, path: String, query: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8]) {
        var components = URLComponents()
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.0, value: $0.1) }
        let suffix = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        let answer = try await send(method, path + suffix, body: body.map { Data($0) }, operation: "\(method) \(path)")
        return (answer.status, [UInt8](answer.body))
    }

    public func publish(subscribeKey: String, publishKey: String, channel: String, message: String) async throws {
        let base = "/publish/\(Self.segment(publishKey))/\(Self.segment(subscribeKey))/0/\(Self.segment(channel))/0"
        // Long messages go in a POST body (spec §4.2): a GET path would exceed the URI limit.
        let answer = message.utf8.count > 1_000
            ? try await send("POST", base + "?uuid=harness-publisher", body: Data(message.utf8), operation: "publish")
            : try await send("GET", base + "/\(Self.segment(message))?uuid=harness-publisher", operation: "publish")
        try expectOK(answer, "publish")
    }

    /// Resets every plan, journal and listener of the server (`POST /__admin/reset`).
    public func reset() async throws {
        try await expectOK(send("POST", "/__admin/reset", operation: "reset"), "reset")
    }

    private func send(_ method: String, _ pathAndQuery: String, body: Data? = nil, operation: String) async throws -> (status: Int, body: Data) {
        guard let url = URL(string: "http://\(address)\(pathAndQuery)") else {
            throw HarnessServerError.requestFailed(operation: operation, detail: "invalid URL for \(pathAndQuery)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        do {
            let (data, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        } catch {
            throw HarnessServerError.requestFailed(operation: operation, detail: "\(error)")
        }
    }

    private func expectOK(_ answer: (status: Int, body: Data), _ operation: String) throws {
        guard (200..<300).contains(answer.status) else {
            throw HarnessServerError.requestFailed(
                operation: operation, detail: "HTTP \(answer.status) \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
        }
    }

    private func port(_ body: Data, _ operation: String) throws -> Int {
        guard let value = try? JSONValue.parse(Array(body)), let port = value["port"]?.intValue else {
            throw HarnessServerError.invalidAnswer(operation: operation, detail: String(decoding: body.prefix(200), as: UTF8.self))
        }
        return port
    }

    private static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
