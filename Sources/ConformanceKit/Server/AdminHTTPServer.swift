// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
import HarnessHTTPClient

/// A mock server in another process, controlled through its `/__admin/` routes over kept-alive
/// connections (``HarnessHTTPClient``).
///
/// Keysets, grants and server-side publishes go through `/__admin/keysets`, `/__admin/grants/{key}`
/// and `/__admin/messages/{key}`, which act on the service exactly as the in-process server does
/// (a publish is injected, bypassing keys, Access Manager and the publish size limit), so a run
/// against `serve` in another process gives the same results as a run in process.
public struct AdminHTTPServer: HarnessServer {
    public let address: String
    public let tlsAddress: String?
    /// Keep-alive connections to the server's plain listener; nil when `address` is not `HOST:PORT`.
    private let client: HTTPClient?
    /// Seconds each control request may take.
    public let requestTimeout: Double
    /// ``requestTimeout`` at time scale 1.
    public static let defaultRequestTimeout = 5.0

    /// - Parameters:
    ///   - address: `host:port` of the server's plain listener.
    ///   - tlsAddress: `host:port` of its TLS listener, if any.
    ///   - requestTimeout: seconds each control request may take (a run passes the default
    ///     stretched by its time scale: a slow server is slow on its admin routes too).
    public init(address: String, tlsAddress: String? = nil, requestTimeout: Double = defaultRequestTimeout) {
        self.address = address
        self.tlsAddress = tlsAddress
        self.requestTimeout = requestTimeout
        self.client = Self.hostAndPort(address).flatMap { host, port in
            try? HTTPClient(host: host, port: port, trust: nil, userAgent: "pubnub-harness-admin", keepAlive: true)
        }
    }

    /// Splits `host:port` (`[v6]:port` too); nil when there is no valid port.
    public static func hostAndPort(_ address: String) -> (String, Int)? {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
              (1...65_535).contains(port), colon != address.startIndex else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
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
        let body: JSONValue = ["subscribeKey": .string(subscribeKey), "publishKey": .string(publishKey), "secretKey": .string(secretKey)]
        try await expectOK(send("POST", "/__admin/keysets", body: Data(body.jsonText.utf8), operation: "register keyset"), "register keyset")
    }

    public func grant(_ grant: Grant, subscribeKey: String) async throws {
        var body: JSONValue = [
            "channels": .array(grant.channels.map { .string($0) }), "groups": .array(grant.groups.map { .string($0) }),
            "authKeys": .array(grant.authKey.map { [.string($0)] } ?? []),
            "read": .bool(grant.read), "write": .bool(grant.write), "manage": .bool(grant.manage),
            "ttl": .int(grant.ttlMinutes),
        ]
        if grant.delete, case .object(var members) = body {
            members["delete"] = true
            body = .object(members)
        }
        let path = "/__admin/grants/\(Self.segment(subscribeKey))"
        try await expectOK(send("POST", path, body: Data(body.jsonText.utf8), operation: "grant"), "grant")
    }

    public func request(method: String, path: String, query: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8]) {
        let suffix = query.isEmpty ? "" : "?" + query.map { "\(Self.segment($0.0))=\(Self.segment($0.1))" }.joined(separator: "&")
        let answer = try await send(method, path + suffix, body: body.map { Data($0) }, operation: "\(method) \(path)")
        return (answer.status, [UInt8](answer.body))
    }

    public func publish(subscribeKey: String, publishKey: String, channel: String, message: String) async throws {
        let body: JSONValue = ["channel": .string(channel), "messageJSON": .string(message), "publisher": "harness-publisher"]
        let path = "/__admin/messages/\(Self.segment(subscribeKey))"
        try await expectOK(send("POST", path, body: Data(body.jsonText.utf8), operation: "publish"), "publish")
    }

    /// Resets every plan, journal and listener of the server (`POST /__admin/reset`).
    public func reset() async throws {
        try await expectOK(send("POST", "/__admin/reset", operation: "reset"), "reset")
    }

    private func send(_ method: String, _ pathAndQuery: String, body: Data? = nil, operation: String) async throws -> (status: Int, body: Data) {
        guard let client else {
            throw HarnessServerError.requestFailed(operation: operation, detail: "\(address) is not HOST:PORT")
        }
        let request = HTTPClientRequest(method: method, target: pathAndQuery, body: body.map { [UInt8]($0) })
        switch await client.perform(request, timeout: requestTimeout) {
        case .success(let response):
            return (response.statusCode, Data(response.body))
        case .failure(let error):
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
