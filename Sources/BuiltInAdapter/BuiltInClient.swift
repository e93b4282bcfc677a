// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit
import PubNubCrypto

/// The built-in client (`ClientUnderTest.PubNubClient`) as a ``ConformanceClient``.
public struct BuiltInClient: ConformanceClient {
    public let name = "built-in"
    /// Everything `PubNubClient` implements: TLS with a trusted CA, the three cipher schemes,
    /// presence, history, channel groups, auth keys, reconnection, and every later feature
    /// (tokens, files, App Context, push, custom message types, filters, wildcards).
    public let capabilities = Set(Capability.allCases)

    public init() {}

    public func makeSession(configuration: ClientSessionConfiguration) async throws -> any ClientSession {
        // An unknown cipher scheme is `unsupported` (the case is skipped); anything else the
        // client refuses is a start failure.
        let settings = try Self.clientConfiguration(configuration)
        let client: PubNubClient
        do {
            client = try PubNubClient(configuration: settings)
        } catch {
            throw ClientAdapterError.startFailed("\(error)")
        }
        return BuiltInSession(client: client)
    }

    /// The session settings as a `PubNubConfiguration` (times in seconds).
    static func clientConfiguration(_ settings: ClientSessionConfiguration) throws -> PubNubConfiguration {
        var config = PubNubConfiguration(publishKey: settings.publishKey, subscribeKey: settings.subscribeKey, uuid: settings.uuid)
        config.origin = settings.origin
        config.tlsEnabled = settings.tls
        if settings.tls, let pem = settings.caPEM { config.trustedCA = .pem(pem) }
        config.authKey = settings.authKey
        config.secretKey = settings.secretKey
        if let key = settings.cipherKey {
            let schemeName = settings.cipherScheme ?? "legacy"
            guard let scheme = CryptoScheme(rawValue: schemeName) else {
                throw ClientAdapterError.unsupported("cipher scheme \(schemeName)")
            }
            do {
                config.cipher = try PubNubCryptoCipher(cipherKey: key, scheme: scheme)
            } catch {
                throw ClientAdapterError.startFailed("\(error)")
            }
        }
        config.nonSubscribeRequestTimeout = Double(settings.nonSubscribeTimeoutMs) / 1_000
        config.subscribeMaximumIdleTime = Double(settings.subscribeTimeoutMs) / 1_000
        config.reconnectionPingInterval = Double(settings.reconnectPingIntervalMs) / 1_000
        config.restoreSubscription = settings.restoreSubscription
        config.catchUpOnSubscriptionRestore = settings.catchUpOnSubscriptionRestore
        config.keepTimeTokenOnListChange = settings.keepTimeTokenOnListChange
        config.requestMessageCountThreshold = settings.requestMessageCountThreshold
        // The harness configures short presence timeouts on purpose (cases run in seconds).
        config.allowsShortPresenceTimeout = true
        config.presenceHeartbeatValue = settings.presenceHeartbeatValue
        config.presenceHeartbeatInterval = Double(settings.presenceHeartbeatIntervalMs) / 1_000
        config.filterExpression = settings.filterExpression
        if let engine = settings.eventEngine {
            config.enableEventEngine = true
            config.retryPolicy = try retryPolicy(engine)
            config.suppressLeaveEvents = engine.suppressLeaveEvents
        }
        return config
    }

    /// The client's retry policy for a case's event-engine settings.
    static func retryPolicy(_ settings: EventEngineSettings) throws -> RetryPolicy {
        guard let kind = RetryPolicy.Kind(rawValue: settings.kind) else {
            throw ClientAdapterError.unsupported("retry policy kind \(settings.kind)")
        }
        var excluded: Set<RetryPolicy.Endpoint> = []
        for name in settings.excluded {
            guard let endpoint = RetryPolicy.Endpoint(rawValue: name) else {
                throw ClientAdapterError.unsupported("retry policy endpoint \(name)")
            }
            excluded.insert(endpoint)
        }
        return RetryPolicy(kind: kind, delay: Double(settings.delayMs) / 1_000, maximumDelay: Double(settings.maximumDelayMs) / 1_000,
                           maximumRetries: settings.maximumRetries, excluded: excluded)
    }
}
