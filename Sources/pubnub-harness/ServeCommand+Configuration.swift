// SPDX-License-Identifier: MIT
import MockPubNubServer

/// `serve`'s options as one nested configuration: each part goes to the module that owns it.
extension ServeCommand {
    /// The server's configuration from the options (extensions are added by `run`).
    func makeConfiguration() throws -> MockServerConfiguration {
        var configuration = MockServerConfiguration()
        configuration.transport = try transportConfiguration()
        configuration.pubNub = try pubNubConfiguration()
        configuration.admin = AdminConfiguration(allowsRemotePeers: adminRemote)
        configuration.responses = ResponseSettings(
            crossOrigin: !noCORS, compression: CompressionSettings(enabled: !noCompression, thresholdBytes: compressionThreshold))
        return configuration
    }

    /// Listeners, loops, timeouts and the request log (the server core's part).
    func transportConfiguration() throws -> TransportConfiguration {
        guard let numericHost = HostName.numeric(host) else { throw UsageError("--host: cannot resolve '\(host)'") }
        var transport = TransportConfiguration()
        transport.host = numericHost
        transport.port = port
        transport.tlsPort = tlsPort
        transport.tlsFault = try parsedTLSFault() ?? .none
        transport.tlsRecordLayer = try parsedTLSRecordLayer()
        transport.faultListeners = try parsedFaultPorts()
        transport.headerTimeout = Self.duration(seconds: headerTimeout)
        transport.idleTimeout = Self.duration(seconds: idleTimeout)
        transport.eventLoopCount = eventLoops
        // Requests are logged at info: `--log-level` is the threshold, `--quiet` turns them off.
        transport.requestLogLevel = quiet ? nil : .info
        return transport
    }

    /// Keysets and the long-poll and presence tunables (the PubNub service's part).
    func pubNubConfiguration() throws -> PubNubServiceConfiguration {
        var pubNub = try PubNubServiceConfiguration(
            keysets: parsedKeysets(), longPollIdleTimeout: .milliseconds(Int((longPollTimeout * 1000).rounded())),
            presenceTimeoutFloor: presenceTimeoutFloor)
        pubNub.files.storageBytesPerKeyspace = fileStorageCap * 1024 * 1024
        pubNub.features = KeyFeatures(
            wildcardSubscribe: !noWildcardSubscribe, invalidFilter: InvalidFilterAnswer(rawValue: invalidFilter) ?? .reject,
            presenceAnnounceMax: presenceAnnounceMax, presenceInterval: presenceInterval,
            eventEngineSubscribePresence: eeSubscribePresence == "on")
        for key in noWildcardKeys {
            var features = pubNub.features
            features.wildcardSubscribe = false
            pubNub.featuresByKey[key] = features
        }
        return pubNub
    }

    /// `seconds` as a duration in whole milliseconds; 0 means no limit (`nil`).
    static func duration(seconds: Double) -> Duration? {
        seconds > 0 ? .milliseconds(Int((seconds * 1000).rounded())) : nil
    }

    /// The one line `serve` prints for a server that cannot be made or started: the typed error,
    /// formatted here at the CLI boundary.
    static func message(for error: MockServerError) -> String {
        switch error.reason {
        case .tls(let detail): "cannot prepare TLS: \(detail)"
        case .bind(let detail): "cannot start listening: \(detail)"
        case .notRunning: "the server is not running"
        }
    }
}
