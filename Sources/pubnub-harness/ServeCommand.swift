// SPDX-License-Identifier: MIT
import ArgumentParser
import Dispatch
import Foundation
import Logging
import MockPubNubServer
import MockPusher
import HarnessRecording
import PusherServer

/// `pubnub-harness serve`: runs the mock PubNub server until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the mock PubNub server (plain HTTP, optional TLS, fault injection, /__admin/ control API)."
    )

    @Option(help: "Address to listen on: an IP address or a host name such as localhost.")
    var host = "127.0.0.1"

    @Option(help: "Plain HTTP port (0 picks a free one).")
    var port = 8090

    @Option(name: .customLong("keyset"), help: "SUB:PUB:SECRET: a keyset with Access Manager on (repeatable). Other keys are open demo keys.")
    var keysets: [String] = []

    @Option(name: .customLong("pusher-app"), help: "ID:KEY:SECRET[,SETTING…]: a Pusher Channels app served on the same listeners at /app/KEY (repeatable; default: the demo app). Settings: subscription-count, cache-ttl=SECONDS, no-cache, encryption-master-key=BASE64 (32 bytes).")
    var pusherApps: [String] = []

    @Option(name: .customLong("pusher-webhook"), help: "[ID=]URL: POST the Pusher apps' (or app ID's) webhooks to this loopback http:// URL (repeatable).")
    var pusherWebhooks: [String] = []

    @Option(
        name: .customLong("pusher-webhook-batch"),
        help: "MS or off: how long webhook events of one app collect into one POST (default 250, the service's window; at most 20 events), or off for one event per POST.")
    var pusherWebhookBatch = "250"

    @Option(name: .customLong("tls-port"), help: "Also serve the same endpoints over TLS on this port (0 picks a free one).")
    var tlsPort: Int?

    @Option(name: .customLong("tls-fault"), help: "The TLS fault every connection on --tls-port gets (e.g. expired, self-signed; default: trusted).")
    var tlsFault: String?

    @Option(
        name: .customLong("tls-records"),
        help: "Who carries TLS records after a TLS 1.3 handshake: own (the server itself, after freeing OpenSSL's per-connection state: an idle wss connection takes about 1.1-1.5 KB instead of 15 KB) or openssl (OpenSSL throughout). Default: own.")
    var tlsRecords: String = TLSRecordLayer.own.rawValue

    @Option(name: .customLong("tls-ca-out"), help: "Write the test CA certificate (PEM) that clients must trust to this file.")
    var caOut: String?

    @Option(
        name: [.customLong("fault-port"), .customLong("tls-fault-port")],
        help: "FAULT=PORT: an extra listener whose every connection gets FAULT, e.g. tls-expired=8444 or reset-on-accept=8095 (repeatable).")
    var faultPorts: [String] = []

    @Option(name: .customLong("plan"), help: "A fault-plan file to install at start (repeatable; docs/fault-plans.md).")
    var planFiles: [String] = []

    @Option(name: .customLong("pusher-plan"), help: "A Pusher fault-plan file to install at start, each plan under its appKey (repeatable; docs/fault-plans.md).")
    var pusherPlanFiles: [String] = []

    @Option(name: .customLong("pusher-http"), help: "HEARTBEAT_MS:DISCONNECT_MS[:no-prelude]: the Pusher HTTP fallback sessions' heartbeat interval, the silence without a receiving request after which a session ends, and no-prelude to start streams without the 2 KB prelude (default 25000:5000; docs/pusher.md).")
    var pusherHTTP: String?

    @Option(name: .customLong("pusher-refuse-websocket"), help: "STATUS (400-599): answer every Pusher WebSocket upgrade with this status, as a proxy that blocks WebSockets, so clients fall back to the HTTP transports.")
    var pusherRefuseWebSocket: Int?

    @Option(name: .customLong("long-poll-timeout"), help: "Seconds an idle subscribe long-poll is held before it answers empty.")
    var longPollTimeout = 280.0

    @Option(name: .customLong("header-timeout"), help: "Seconds a request head may take from its first byte (or from the accept) before 408 and close; 0 = no limit.")
    var headerTimeout = 10.0

    @Option(name: .customLong("idle-timeout"), help: "Seconds a keep-alive connection may stay without a request before it is closed; 0 = no limit.")
    var idleTimeout = 60.0

    @Option(name: .customLong("file-storage-cap"), help: "MiB of uploaded files the mock's storage keeps per subscribe key.")
    var fileStorageCap = 64

    @Option(name: .customLong("presence-timeout-floor"), help: "Minimum presence timeout in seconds (default: honour what clients send).")
    var presenceTimeoutFloor: Int?

    @Flag(name: .customLong("no-wildcard-subscribe"), help: "Refuse a.* subscriptions on every key (the Stream Controller add-on off; default: on).")
    var noWildcardSubscribe = false

    @Option(name: .customLong("no-wildcard-key"), help: "Refuse a.* subscriptions on this subscribe key only (repeatable).")
    var noWildcardKeys: [String] = []

    @Option(name: .customLong("invalid-filter"), help: "How an unparsable filter-expr is answered: reject (481, default) or match-nothing.")
    var invalidFilter = "reject"

    @Option(name: .customLong("ee-subscribe-presence"), help: "Whether a subscribe with the event-engine flag ee announces and keeps presence: on (default) or off (presence from heartbeat requests only; UNVERIFIED which the service does).")
    var eeSubscribePresence = "on"

    @Option(name: .customLong("presence-announce-max"), help: "Interval presence mode: above this occupancy a channel gets periodic interval events instead of each join/leave/timeout (default: off).")
    var presenceAnnounceMax: Int?

    @Option(name: .customLong("presence-interval"), help: "Seconds between interval events in interval presence mode.")
    var presenceInterval = 10

    @Option(name: .customLong("event-loops"), help: "Event-loop threads (default: one per core).")
    var eventLoops: Int?

    @Option(name: .customLong("log-level"), help: "Lowest level logged: trace, debug, info (requests, fault firings, plan installs and clears), notice, warning (unparsable requests, failed TLS handshakes), error, critical.")
    var logLevel = "info"

    @Flag(name: .customLong("quiet"), help: "Do not log requests.")
    var quiet = false

    @Flag(name: .customLong("admin-remote"), help: "Let the /__admin/ API answer peers other than loopback.")
    var adminRemote = false

    @Flag(name: .customLong("no-compression"), help: "Never gzip answers (default: as the live service, for clients that offer gzip, above --compression-threshold).")
    var noCompression = false

    @Option(name: .customLong("compression-threshold"), help: "Smallest body in bytes that is gzip-compressed (default 1024; the live threshold is UNVERIFIED).")
    var compressionThreshold = CompressionSettings.defaultThresholdBytes

    @Flag(name: .customLong("no-cors"), help: "Answer without cross-origin fields, Cache-Control and Date, and preflights as any request (default: as the live service).")
    var noCORS = false

    @Option(name: .customLong("playback"), help: "A recording (written by record) whose answers are played back, in order, to requests of the same shape; other requests are the mock's.")
    var playback: String?

    @Option(name: .customLong("playback-timing"), help: "When played-back answers go out: recorded (after as long as they took) or immediate.")
    var playbackTiming = PlaybackTiming.recorded.rawValue

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        if let tlsPort, !(0...65535).contains(tlsPort) { throw ValidationError("--tls-port must be 0...65535, got \(tlsPort)") }
        guard longPollTimeout > 0 else { throw ValidationError("--long-poll-timeout must be positive") }
        guard headerTimeout >= 0, headerTimeout.isFinite else { throw ValidationError("--header-timeout must be >= 0 seconds") }
        guard idleTimeout >= 0, idleTimeout.isFinite else { throw ValidationError("--idle-timeout must be >= 0 seconds") }
        guard (0...(64 << 20)).contains(compressionThreshold) else {
            throw ValidationError("--compression-threshold must be 0...67108864 bytes, got \(compressionThreshold)")
        }
        if noCompression && compressionThreshold != CompressionSettings.defaultThresholdBytes {
            throw ValidationError("--compression-threshold cannot be combined with --no-compression")
        }
        guard (1...65536).contains(fileStorageCap) else { throw ValidationError("--file-storage-cap must be 1...65536 MiB") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
        if tlsFault != nil && tlsPort == nil { throw ValidationError("--tls-fault needs --tls-port") }
        if caOut != nil && tlsPort == nil && faultPorts.isEmpty { throw ValidationError("--tls-ca-out needs --tls-port") }
        _ = try parsedKeysets()
        _ = try parsedPusherWebhooks()
        _ = try parsedWebhookSettings()
        _ = try parsedFaultPorts()
        _ = try parsedTLSFault()
        _ = try parsedTLSRecordLayer()
        if HostName.numeric(host) == nil { throw ValidationError("--host: cannot resolve '\(host)'") }
        if let presenceAnnounceMax, presenceAnnounceMax < 0 { throw ValidationError("--presence-announce-max must be >= 0") }
        guard (1...3600).contains(presenceInterval) else { throw ValidationError("--presence-interval must be 1...3600 seconds") }
        if PlaybackTiming(rawValue: playbackTiming) == nil {
            throw ValidationError("--playback-timing must be recorded or immediate, got '\(playbackTiming)'")
        }
        if InvalidFilterAnswer(rawValue: invalidFilter) == nil {
            throw ValidationError("--invalid-filter must be reject or match-nothing, got '\(invalidFilter)'")
        }
        if eeSubscribePresence != "on" && eeSubscribePresence != "off" {
            throw ValidationError("--ee-subscribe-presence must be on or off, got '\(eeSubscribePresence)'")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        var logger = Logger(label: "pubnub-harness")
        logger.logLevel = level
        var configuration = try makeConfiguration()
        let pusherApps = try parsedPusherApps()
        let webhooks: PusherWebhookDispatcher?
        do {
            let urls = try parsedPusherWebhooks()
            webhooks = urls.isEmpty ? nil : try PusherWebhookDispatcher(apps: pusherApps, urls: urls, settings: try parsedWebhookSettings())
        } catch {
            throw UsageError("\(error)")
        }
        defer { webhooks?.stop(wait: false) }  // the process ends next: no blocking wait on the pool
        var pusherOptions = PusherServiceOptions(webhookSink: { appID, event in webhooks?.submit(appID: appID, event: event) })
        try configurePusherHTTP(&pusherOptions)
        let pusher = PusherService(apps: pusherApps, options: pusherOptions)
        configuration.extensions = pusher.extensions
        let playback = try loadPlayback()
        configuration.interceptor = playback

        var plans: [(file: String, bytes: [UInt8])] = []
        for file in planFiles { plans.append((file, [UInt8](try readInput(file, what: "plan")))) }
        let server: MockServer
        do throws(MockServerError) {
            server = try MockServer(configuration: configuration, logger: logger)
        } catch {
            throw CLIFailure(Self.message(for: error))
        }
        for (file, bytes) in plans {
            do {
                for installed in try server.faults.installPlans(fromFile: bytes) {
                    say("plan \(file): subscribe key \(installed.subscribeKey), seed \(installed.seed)")
                }
            } catch {
                throw UsageError("--plan \(file): \(error)")
            }
        }
        try installPusherPlans(into: pusher)
        do throws(MockServerError) {
            try server.start()
        } catch {
            throw CLIFailure(Self.message(for: error))
        }
        if let caOut {
            do { try server.tlsMaterial.writeCertificateAuthority(toFile: caOut) } catch {
                await server.shutdown()
                throw CLIFailure("--tls-ca-out \(caOut): \(error)")
            }
        }
        let signals = SignalWaiter.install()
        announce(server)
        if let playback, let file = self.playback {
            say("playback: \(playback.recordedCount) recorded answers from \(file) (timing: \(playback.timing.rawValue))")
        }
        announcePusher(pusher.apps, on: server)
        let signal = await signals.wait()
        say("received \(signal), stopping")
        await server.shutdown()
        say("stopped")
    }

    private func announce(_ server: MockServer) {
        if let address = server.address { say("listening on http://\(address.host):\(address.port)") }
        if let tls = server.tlsAddress {
            say("listening on https://\(tls.host):\(tls.port) (tls fault: \(server.configuration.tlsFault.rawValue))")
        }
        for spec in server.configuration.faultListeners {
            if let address = server.address(of: spec) {
                say("fault listener \(spec.fault.rawValue) on \(address.host):\(address.port)")
            }
        }
        if let caOut { say("test CA written to \(caOut)") }
        let keys = server.configuration.keysets.map(\.subscribeKey)
        say("Access Manager keysets: \(keys.isEmpty ? "none (all keys are open demo keys)" : keys.joined(separator: ", "))")
        if let address = server.address {
            let shown = address.host.contains(":") ? "[\(address.host)]" : address.host
            say("admin API: http://\(shown):\(address.port)/__admin/ (GET /__admin/ lists the routes, /__admin/health answers ok)")
        }
    }

    /// The `--playback` recording's answers, or nil without the option.
    private func loadPlayback() throws -> PlaybackInterceptor? {
        guard let file = playback else { return nil }
        let bytes = try readInput(file, what: "recording")
        do {
            return PlaybackInterceptor(recording: try Recording.decode([UInt8](bytes)), timing: PlaybackTiming(rawValue: playbackTiming) ?? .recorded)
        } catch {
            throw UsageError("--playback \(file): \(error)")
        }
    }

    private func parsedPusherApps() throws -> [PusherApp] {
        do {
            return try PusherAppArgument.parseAll(pusherApps)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    private func parsedWebhookSettings() throws -> PusherWebhookSettings {
        var settings = PusherWebhookSettings()
        if pusherWebhookBatch == "off" {
            settings.batchWindow = nil
        } else if let ms = Int(pusherWebhookBatch), (1...60_000).contains(ms) {
            settings.batchWindow = .milliseconds(ms)
        } else {
            throw ValidationError("--pusher-webhook-batch must be milliseconds from 1 to 60000 or off, got '\(pusherWebhookBatch)'")
        }
        return settings
    }

    private func parsedPusherWebhooks() throws -> [String: String] {
        do {
            return try PusherWebhookArgument.parseAll(pusherWebhooks, apps: try parsedPusherApps())
        } catch let error as PusherWebhookError {
            throw ValidationError("--pusher-webhook: \(error)")
        }
    }

    func parsedKeysets() throws -> [Keyset] {
        try keysets.map { text in
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
                throw ValidationError("--keyset must be SUB:PUB:SECRET, got '\(text)'")
            }
            return Keyset(subscribeKey: parts[0], publishKey: parts[1], secretKey: parts[2])
        }
    }

    func parsedTLSRecordLayer() throws -> TLSRecordLayer {
        guard let layer = TLSRecordLayer(rawValue: tlsRecords) else {
            throw ValidationError("--tls-records: unknown value '\(tlsRecords)' (one of: own, openssl)")
        }
        return layer
    }

    func parsedTLSFault() throws -> ListenerFault? {
        guard let tlsFault else { return nil }
        guard let fault = ListenerFault.named(tlsFault), fault == .none || fault.isTLS else {
            throw ValidationError("--tls-fault: unknown TLS fault '\(tlsFault)' (one of: \(ListenerFault.tlsNames))")
        }
        return fault
    }

    func parsedFaultPorts() throws -> [FaultListenerSpec] {
        try faultPorts.map { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let port = Int(parts[1]), (0...65535).contains(port) else {
                throw ValidationError("--fault-port must be FAULT=PORT, got '\(text)'")
            }
            guard let fault = ListenerFault.named(parts[0]), fault != .none else {
                throw ValidationError("--fault-port: unknown listener fault '\(parts[0])'")
            }
            return FaultListenerSpec(fault: fault, port: port)
        }
    }
}

/// Prints a line to standard output at once (unbuffered, so scripts see the address immediately).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

extension ListenerFault {
    /// The fault with this raw value, or with `tls-` prepended (`expired` → `tls-expired`); `trusted` = `.none`.
    static func named(_ name: String) -> ListenerFault? {
        if name == "trusted" { return ListenerFault.none }
        return ListenerFault(rawValue: name) ?? ListenerFault(rawValue: "tls-" + name)
    }

    static var tlsNames: String {
        allCases.filter(\.isTLS).map { String($0.rawValue.dropFirst(4)) }.joined(separator: ", ")
    }
}
