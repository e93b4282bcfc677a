// SPDX-License-Identifier: MIT

/// The mock server as the runner controls it: in process (a wrapper around `MockServer`) or over
/// HTTP (`/__admin/`, ``AdminHTTPServer``).
public protocol HarnessServer: Sendable {
    /// `host:port` of the plain HTTP listener.
    var address: String { get }
    /// `host:port` of the TLS listener (trusted leaf), if there is one.
    var tlsAddress: String? { get }
    /// The PEM of the run's test CA, if TLS is available.
    func caPEM() async throws -> String?
    func installPlan(json: JSONValue, subscribeKey: String) async throws
    func clearPlan(subscribeKey: String) async throws
    /// The requests recorded for the key, oldest first.
    func journal(subscribeKey: String) async throws -> [JournalEntry]
    /// Opens a listener applying `fault` (a `ListenerFault` raw value) and returns its port.
    func openListener(fault: String) async throws -> Int
    func closeListener(port: Int) async throws
    /// A loopback port with nothing listening.
    func refusedPort() async throws -> Int
    /// Enables Access Manager for a keyset.
    func registerKeyset(subscribeKey: String, publishKey: String, secretKey: String) async throws
    /// Grants (or revokes) access on a keyset registered with ``registerKeyset(subscribeKey:publishKey:secretKey:)``.
    func grant(_ grant: Grant, subscribeKey: String) async throws
    /// Publishes `message` (JSON text) as another user would, bypassing Access Manager (the
    /// in-process server injects it; over HTTP it is a plain publish with uuid `harness-publisher`).
    func publish(subscribeKey: String, publishKey: String, channel: String, message: String) async throws
    /// Sends a plain request to the PubNub service; returns the status and body.
    func request(method: String, path: String, query: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8])
}

/// One request recorded by the server (docs/fault-plans.md, journal).
public struct JournalEntry: Sendable, Hashable, Codable {
    public var method: String
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
    public var body: String?
    /// Unix seconds.
    public var arrivalTime: Double
    public var endpoint: String
    public var subscribeKey: String?
    public var uuid: String?
    /// The id of the plan rule that decided the request, if one did.
    public var rule: String?

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: String? = nil, arrivalTime: Double, endpoint: String, subscribeKey: String? = nil,
                uuid: String? = nil, rule: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.arrivalTime = arrivalTime
        self.endpoint = endpoint
        self.subscribeKey = subscribeKey
        self.uuid = uuid
        self.rule = rule
    }

    private enum CodingKeys: String, CodingKey {
        case method, path, query, headers, body, arrivalTime, endpoint, subscribeKey, uuid, rule
    }

    /// Accepts `query`/`headers` as an object, an array of `[name, value]` pairs or of
    /// `{"name","value"}` objects, and `arrivalTime` as seconds (number) — whichever the server writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        query = Self.pairs(try container.decodeIfPresent(JSONValue.self, forKey: .query))
        headers = Self.pairs(try container.decodeIfPresent(JSONValue.self, forKey: .headers))
        body = try container.decodeIfPresent(JSONValue.self, forKey: .body).flatMap { $0.stringValue ?? ($0 == .null ? nil : $0.jsonText) }
        arrivalTime = try container.decodeIfPresent(Double.self, forKey: .arrivalTime) ?? 0
        endpoint = try container.decodeIfPresent(String.self, forKey: .endpoint) ?? "unknown"
        subscribeKey = try container.decodeIfPresent(String.self, forKey: .subscribeKey)
        uuid = try container.decodeIfPresent(String.self, forKey: .uuid)
        rule = try container.decodeIfPresent(String.self, forKey: .rule)
    }

    private static func pairs(_ value: JSONValue?) -> [String: String] {
        var result: [String: String] = [:]
        switch value {
        case .object(let members):
            for (key, value) in members { result[key] = value.stringValue ?? value.jsonText }
        case .array(let items):
            for item in items {
                if let pair = item.arrayValue, pair.count == 2, let name = pair[0].stringValue {
                    result[name] = pair[1].stringValue ?? pair[1].jsonText
                } else if let name = item["name"]?.stringValue {
                    result[name] = item["value"]?.stringValue ?? ""
                }
            }
        default:
            break
        }
        return result
    }

    /// `METHOD path?query [rule]`, for wire logs.
    public var line: String {
        let query = self.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        return "\(method) \(path)\(query.isEmpty ? "" : "?" + query)\(rule.map { "  [rule \($0)]" } ?? "")"
    }

    /// Whether the query satisfies `conditions` in fault-plan syntax.
    public func queryMatches(_ conditions: [String: String]) -> Bool {
        conditions.allSatisfy { name, pattern in
            // `a|b`: either condition (e.g. `0|!`, a handshake with `tt=0` or without `tt`).
            pattern.split(separator: "|", omittingEmptySubsequences: false).contains { Self.holds(String($0), query[name]) }
        }
    }

    private static func holds(_ condition: String, _ value: String?) -> Bool {
        switch condition {
        case "*": return value != nil
        case "!": return value == nil
        default:
            if condition.hasPrefix("!") { return value != nil && value != String(condition.dropFirst()) }
            return value == condition
        }
    }
}
