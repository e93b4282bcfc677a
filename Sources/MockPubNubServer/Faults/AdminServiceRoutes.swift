// SPDX-License-Identifier: MIT

/// What the admin API may do to the PubNub service besides faults: Access Manager keysets and
/// grants, and messages injected as another user would publish them (test drivers in another
/// process use these, as in-process runners use the service directly).
public struct AdminServiceControl: Sendable {
    let register: @Sendable (Keyset) -> Void
    let grant: @Sendable (AccessGrant, String) -> Void
    let inject: @Sendable (_ subscribeKey: String, _ channel: String, _ message: String, _ publisher: String?) throws(PubNubServiceError) -> UInt64
    let objects: @Sendable (String) -> JSONValue
    let resetObjects: @Sendable (String) -> Void
    /// The stored files of one subscribe key, or of every key (`nil`).
    let listFiles: @Sendable (_ subscribeKey: String?) -> [FileSummary]
    /// Drops the stored files and upload URLs of one subscribe key, or of every key (`nil`); returns how many files went.
    let removeFiles: @Sendable (_ subscribeKey: String?) -> Int
    /// Access Manager v3: issue a token from a grant-token body; move a key's access clock.
    let issueToken: @Sendable (_ subscribeKey: String, _ body: [UInt8]) -> Result<String, TokenIssueError>
    let advanceAccessClock: @Sendable (_ subscribeKey: String, _ seconds: Int64) -> Int64
    let revokeToken: @Sendable (_ subscribeKey: String, _ token: String) -> Bool

    /// Control of `service`.
    public init(service: PubNubService) {
        register = { service.register($0) }
        grant = { service.grant($0, subscribeKey: $1) }
        inject = { key, channel, message, publisher throws(PubNubServiceError) in
            try service.inject(subscribeKey: key, channel: channel, message: message, publisher: publisher)
        }
        objects = { service.objectsSnapshot(subscribeKey: $0) }
        resetObjects = { service.resetObjects(subscribeKey: $0) }
        listFiles = { service.fileSummaries(subscribeKey: $0) }
        removeFiles = { service.removeFiles(subscribeKey: $0) }
        issueToken = { service.issueToken(subscribeKey: $0, body: $1) }
        advanceAccessClock = { service.advanceAccessClock(subscribeKey: $0, seconds: $1) }
        revokeToken = { service.revokeToken(subscribeKey: $0, token: $1) }
    }
}

extension AdminAPI {
    /// Every route, for `GET /__admin/` (method, path, what it does).
    static let routes: [(String, String, String)] = [
        ("GET", "/__admin/", "this list"),
        ("GET", "/__admin/health", "200 {\"status\":\"ok\"} while the server runs"),
        ("GET", "/__admin/plans", "installed fault plans"),
        ("POST", "/__admin/plans", "install a plan file (one plan or an array, each under its subscribeKey)"),
        ("DELETE", "/__admin/plans", "clear every plan"),
        ("GET, PUT, POST, DELETE", "/__admin/plans/{subscribeKey}", "read, install or clear one key's plan"),
        ("GET, DELETE", "/__admin/journal", "keys with a journal; clear every journal"),
        ("GET, DELETE", "/__admin/journal/{subscribeKey}?since=N", "requests recorded for a key; clear it"),
        ("POST", "/__admin/reset", "clear plans, journals, listeners and the service's state"),
        ("POST", "/__admin/listeners", "open a listener with a connection or TLS fault {\"fault\":...}"),
        ("DELETE", "/__admin/listeners/{port}", "close such a listener"),
        ("POST", "/__admin/listeners/{port}/connection-faults", "queue faults for the next connections {\"faults\":[...]}"),
        ("GET", "/__admin/refused-port", "a loopback port where connections are refused"),
        ("GET", "/__admin/connections", "open connections and those closed by the header and idle timeouts"),
        ("GET", "/__admin/tls/ca", "the test CA certificate {\"caPEM\":...}"),
        ("GET", "/__admin/connections", "open connections and those closed by the server {\"open\",\"headerTimeouts\",\"idleTimeouts\",\"tlsOnPlainPort\"}"),
        ("POST", "/__admin/keysets", "turn Access Manager on for {\"subscribeKey\",\"publishKey\",\"secretKey\"}"),
        ("POST", "/__admin/grants/{subscribeKey}", "grant or revoke {\"channels\",\"groups\",\"authKeys\",\"read\",\"write\",\"manage\",\"delete\",\"ttl\"}"),
        ("POST", "/__admin/messages/{subscribeKey}", "inject a message {\"channel\",\"messageJSON\",\"publisher\"} bypassing keys and Access Manager"),
        ("GET, DELETE", "/__admin/objects/{subscribeKey}", "the key's App Context state (uuids, channels, memberships); forget it"),
        ("GET, DELETE", "/__admin/files", "stored files of every key {\"files\":[...],\"bytes\"}; drop them all"),
        ("GET, DELETE", "/__admin/files/{subscribeKey}", "stored files of one key; drop them"),
        ("POST", "/__admin/tokens/{subscribeKey}", "issue an Access Manager v3 token from a grant-token body {\"ttl\",\"permissions\",...}"),
        ("POST", "/__admin/tokens/{subscribeKey}?revoke=TOKEN", "revoke an Access Manager v3 token of the key"),
        ("POST", "/__admin/access-clock/{subscribeKey}?advance=SECONDS", "move the key's access clock forward (token and grant expiry)"),
    ]

    /// `GET /__admin/`: the route list.
    func index(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" else { return Self.methodNotAllowed(request.method, allowed: "GET") }
        return Self.ok(.object([("routes", .array(Self.routes.map { method, path, text in
            .object([("method", .string(method)), ("path", .string(path)), ("description", .string(text))])
        }))]))
    }

    /// `GET /__admin/health`.
    func health(_ request: HTTPRequest, plans: Int) -> HTTPResponse {
        guard request.method == "GET" else { return Self.methodNotAllowed(request.method, allowed: "GET") }
        return Self.ok(.object([("status", .string("ok")), ("service", .string("pubnub-harness")), ("plans", .int(plans))]))
    }

    /// `/__admin/keysets`, `/__admin/grants/{key}`, `/__admin/messages/{key}`.
    func serviceRoute(_ rest: [String], request: HTTPRequest) -> HTTPResponse {
        guard let control = serviceControl else { return Self.error(501, "service control is not available in this server") }
        guard request.method == "POST" else { return Self.methodNotAllowed(request.method, allowed: "POST") }
        do throws(FaultPlanError) {
            switch (rest[0], rest.count) {
            case ("keysets", 1):
                let body = try Self.object(request.body, allowed: ["subscribeKey", "publishKey", "secretKey"])
                let keyset = Keyset(subscribeKey: try Self.nonEmpty(body, "subscribeKey"), publishKey: try Self.nonEmpty(body, "publishKey"),
                                    secretKey: try Self.nonEmpty(body, "secretKey"))
                control.register(keyset)
                logger?.info("Access Manager keyset registered for subscribe key \(keyset.subscribeKey)")
                return Self.ok(.object([("subscribeKey", .string(keyset.subscribeKey)), ("registered", .bool(true))]))
            case ("grants", 2):
                let body = try Self.object(request.body, allowed: ["channels", "groups", "authKeys", "read", "write", "manage", "delete", "ttl"])
                let grant = AccessGrant(
                    channels: try Self.strings(body, "channels"), groups: try Self.strings(body, "groups"),
                    authKeys: try Self.strings(body, "authKeys"), read: try Self.flag(body, "read"), write: try Self.flag(body, "write"),
                    manage: try Self.flag(body, "manage"), delete: try Self.flag(body, "delete"),
                    ttlMinutes: try body.int("ttl", in: 0...525_600, expected: "minutes 0...525600") ?? 1440)
                control.grant(grant, rest[1])
                return Self.ok(.object([("subscribeKey", .string(rest[1])), ("granted", .bool(true))]))
            case ("messages", 2):
                let body = try Self.object(request.body, allowed: ["channel", "messageJSON", "publisher"])
                let channel = try Self.nonEmpty(body, "channel")
                let message = try body.requiredString("messageJSON")
                let publisher = try body.string("publisher")
                do throws(PubNubServiceError) {
                    let timetoken = try control.inject(rest[1], channel, message, publisher)
                    return Self.ok(.object([("timetoken", .string(String(timetoken)))]))
                } catch {
                    return Self.error(400, "\(error)")
                }
            default:
                return Self.error(404, "no admin route \(request.method) \(request.rawPath)")
            }
        } catch {
            return Self.error(400, error.description)
        }
    }

    private static func nonEmpty(_ body: PlanFieldReader, _ name: String) throws(FaultPlanError) -> String {
        let text = try body.requiredString(name)
        guard !text.isEmpty else { throw FaultPlanError(path: name, message: "must not be empty") }
        return text
    }

    private static func flag(_ body: PlanFieldReader, _ name: String) throws(FaultPlanError) -> Bool {
        switch body.value(name) {
        case nil, .null?: return false
        case .bool(let value)?: return value
        default: throw FaultPlanError(path: name, message: "expected true or false")
        }
    }

    private static func strings(_ body: PlanFieldReader, _ name: String) throws(FaultPlanError) -> [String] {
        guard let value = body.value(name) else { return [] }
        guard case .array(let items) = value else { throw FaultPlanError(path: name, message: "expected an array of strings") }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else { throw FaultPlanError(path: "\(name)[\(index)]", message: "expected a string") }
            result.append(text)
        }
        return result
    }
}
