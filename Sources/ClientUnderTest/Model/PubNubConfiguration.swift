// SPDX-License-Identifier: MIT

/// Encrypts and decrypts message payloads (JSON text ↔ base64 ciphertext).
/// `PubNubCryptoCipher` adapts the `PubNubCrypto` module; tests may supply their own.
public protocol PubNubMessageCipher: Sendable {
    /// JSON text → base64 ciphertext.
    func encrypt(jsonText: String) throws -> String
    /// Base64 ciphertext → JSON text; throws when the data cannot be decrypted.
    func decrypt(base64: String) throws -> String
}

/// Where to find the certificate authorities trusted for TLS.
public enum PubNubTrustedCA: Sendable, Equatable {
    /// Trust the CA certificates in this PEM file.
    case file(String)
    /// Trust the CA certificates in this PEM text.
    case pem(String)
    /// Use OpenSSL's default verify paths.
    case system
}

/// Client configuration. `validate()` runs when the client is made.
public struct PubNubConfiguration: Sendable {
    public var publishKey: String?
    public var subscribeKey: String
    public var secretKey: String?
    public var uuid: String
    /// `host` or `host:port`. Without a port: 443 with TLS, 80 without.
    public var origin: String = "ps.pndsn.com"
    public var tlsEnabled: Bool = true
    public var trustedCA: PubNubTrustedCA = .system
    public var authKey: String?
    /// An Access Manager v3 token; sent as `auth` instead of `authKey` when set (`setToken`).
    public var authToken: String?
    /// Message cipher (legacy static IV, random IV or the CryptoModule); nil = no encryption.
    public var cipher: (any PubNubMessageCipher)?
    /// Presence timeout sent as `heartbeat=` on subscribe and heartbeat requests (20…300 s, or
    /// 1…300 s with `allowsShortPresenceTimeout`); nil = not sent.
    public var presenceHeartbeatValue: Int?
    /// Accept a `presenceHeartbeatValue` below the 4.x minimum of 20 s (down to 1 s), so a test
    /// server can time a user out within seconds. Off by default (the 4.x range).
    public var allowsShortPresenceTimeout: Bool = false
    /// Seconds between presence heartbeats while subscribed; 0 = no heartbeat timer; nil = derived
    /// from `presenceHeartbeatValue` as `value / 2 − 1` (the 4.x rule), or off without a value.
    public var presenceHeartbeatInterval: Double?

    /// The heartbeat period actually used (see `presenceHeartbeatInterval`).
    public var effectiveHeartbeatInterval: Double? {
        if let presenceHeartbeatInterval { return presenceHeartbeatInterval > 0 ? presenceHeartbeatInterval : nil }
        return presenceHeartbeatValue.map { Double($0) / 2 - 1 }
    }
    /// Timeout of every request except subscribe long-polls, in seconds.
    public var nonSubscribeRequestTimeout: Double = 10
    /// How many times `sendFile` repeats a failed publish-file step after the upload succeeded
    /// (the SDKs' `fileUploadPublishRetryLimit`, default 5).
    public var fileUploadPublishRetryLimit: Int = 5
    /// Timeout of a subscribe long-poll, in seconds.
    public var subscribeMaximumIdleTime: Double = 310
    /// Resubscribe after an unexpected disconnect (otherwise forget the channels).
    public var restoreSubscription: Bool = true
    /// Resume from the last timetoken after a reconnection (otherwise from now).
    public var catchUpOnSubscriptionRestore: Bool = true
    /// Keep the previous timetoken across a channel-list change.
    public var keepTimeTokenOnListChange: Bool = true
    /// Report PNRequestMessageCountExceededCategory when one response carries at least this many
    /// messages; 0 = off.
    public var requestMessageCountThreshold: Int = 0
    /// Seconds between `/time/0` pings after an unexpected disconnect.
    public var reconnectionPingInterval: Double = 10
    /// Subscribe filter expression (`filter-expr`), nil = none.
    public var filterExpression: String?
    /// Event-engine mode (today's SDKs) instead of the 4.x loop: failed subscribe and heartbeat
    /// requests are retried by `retryPolicy` and the client gives up after its last attempt
    /// (`PNConnectionErrorCategory`, `PNDisconnectedUnexpectedlyCategory`) instead of pinging
    /// `/time/0`; a list change while receiving keeps the cursor (`PNSubscriptionChangedCategory`);
    /// subscribe and heartbeat requests carry `ee=1`; `reconnect()` resumes from the last cursor.
    public var enableEventEngine: Bool = false
    /// The retry policy of the event-engine mode (the 4.x loop ignores it).
    public var retryPolicy: RetryPolicy = RetryPolicy(kind: .exponential, delay: 2, maximumDelay: 150, maximumRetries: 6)
    /// No leave request when unsubscribing (so no leave event for the others).
    public var suppressLeaveEvents: Bool = false
    /// The `pnsdk` query value.
    public var sdkName: String = "PubNub-Swift-Linux/1.0.0"

    public init(publishKey: String?, subscribeKey: String, uuid: String) {
        self.publishKey = publishKey
        self.subscribeKey = subscribeKey
        self.uuid = uuid
    }

    /// Host part of `origin`.
    public var host: String { splitOrigin().host }
    /// Port of `origin`, or the scheme default.
    public var port: Int { splitOrigin().port ?? (tlsEnabled ? 443 : 80) }

    /// Splits `host:port`, `[v6]:port`, `[v6]` or `host`; IPv6 brackets are removed from the host.
    private func splitOrigin() -> (host: String, port: Int?) {
        func unbracket(_ host: Substring) -> String {
            host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : String(host)
        }
        guard let colon = origin.lastIndex(of: ":"), !origin.hasPrefix("[") || origin[..<colon].hasSuffix("]") else {
            return (unbracket(Substring(origin)), nil)
        }
        return (unbracket(origin[..<colon]), Int(origin[origin.index(after: colon)...]))
    }

    /// Checks every field; throws `ConfigurationError` naming the first invalid one.
    public func validate() throws(ConfigurationError) {
        if subscribeKey.isEmpty { throw .init(field: "subscribeKey", reason: "must not be empty") }
        if subscribeKey.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace }) {
            throw .init(field: "subscribeKey", reason: "must not contain '/', '?', '#' or spaces")
        }
        if let publishKey, publishKey.isEmpty || publishKey.contains("/") {
            throw .init(field: "publishKey", reason: "must be non-empty and contain no '/'")
        }
        if let secretKey, secretKey.isEmpty { throw .init(field: "secretKey", reason: "must not be empty when set") }
        if uuid.allSatisfy(\.isWhitespace) { throw .init(field: "uuid", reason: "must not be empty") }
        let (host, port) = splitOrigin()
        if host.isEmpty || host.contains("/") || host.contains(where: \.isWhitespace) {
            throw .init(field: "origin", reason: "must be host or host:port")
        }
        if origin.contains(":") && !origin.hasPrefix("[") {
            guard let port, (1...65535).contains(port) else {
                throw .init(field: "origin", reason: "port must be 1…65535")
            }
        }
        if case .file(let path) = trustedCA, path.isEmpty { throw .init(field: "trustedCA", reason: "file path is empty") }
        if case .pem(let pem) = trustedCA, !pem.contains("-----BEGIN CERTIFICATE-----") {
            throw .init(field: "trustedCA", reason: "PEM text contains no certificate")
        }
        if let authKey, authKey.isEmpty { throw .init(field: "authKey", reason: "must not be empty when set") }
        if let value = presenceHeartbeatValue, !((allowsShortPresenceTimeout ? 1 : 20)...300).contains(value) {
            throw .init(field: "presenceHeartbeatValue",
                        reason: allowsShortPresenceTimeout ? "must be 1…300 seconds" : "must be 20…300 seconds")
        }
        if let interval = presenceHeartbeatInterval, !(interval >= 0 && interval.isFinite) {
            throw .init(field: "presenceHeartbeatInterval", reason: "must be ≥ 0")
        }
        if !(nonSubscribeRequestTimeout > 0 && nonSubscribeRequestTimeout.isFinite) {
            throw .init(field: "nonSubscribeRequestTimeout", reason: "must be > 0")
        }
        if !(subscribeMaximumIdleTime > 0 && subscribeMaximumIdleTime.isFinite) {
            throw .init(field: "subscribeMaximumIdleTime", reason: "must be > 0")
        }
        if requestMessageCountThreshold < 0 {
            throw .init(field: "requestMessageCountThreshold", reason: "must be ≥ 0")
        }
        if !(reconnectionPingInterval > 0 && reconnectionPingInterval.isFinite) {
            throw .init(field: "reconnectionPingInterval", reason: "must be > 0")
        }
        if let filterExpression, filterExpression.isEmpty {
            throw .init(field: "filterExpression", reason: "must not be empty when set")
        }
        if sdkName.isEmpty { throw .init(field: "sdkName", reason: "must not be empty") }
        if let problem = retryPolicy.validationError() { throw .init(field: "retryPolicy", reason: problem) }
    }
}

/// A configuration field with an invalid value.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name of the offending `PubNubConfiguration` property.
    public let field: String
    public let reason: String
    public var description: String { "invalid configuration: \(field) \(reason)" }
}
