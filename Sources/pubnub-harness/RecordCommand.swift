// SPDX-License-Identifier: MIT
import ArgumentParser
import ConformanceKit
import Foundation
import HarnessHTTPClient
import HarnessRecording
import Logging
import MockPubNubServer

/// `pubnub-harness record`: the recording proxy, until SIGINT or SIGTERM (docs/recordings.md).
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Forward a client's requests to a live origin and record every exchange, redacted, for verify and serve --playback."
    )

    @Option(help: "The origin to forward to: https://ps.pndsn.com, or http://host:port.")
    var upstream: String

    @Option(help: "The recording file to write (created or replaced).")
    var out: String

    @Option(help: "Address to listen on: an IP address or a host name such as localhost.")
    var host = "127.0.0.1"

    @Option(help: "Plain HTTP port the client points at (0 picks a free one).")
    var port = 8091

    @Option(name: .customLong("tls-port"), help: "Also listen with TLS on this port (0 picks a free one), with a test CA minted at start.")
    var tlsPort: Int?

    @Option(name: .customLong("tls-ca-out"), help: "Write the test CA certificate (PEM) that clients of --tls-port must trust to this file.")
    var caOut: String?

    @Option(name: .customLong("upstream-ca"), help: "Trust these CA certificates (PEM) for an https upstream instead of the system's trust store.")
    var upstreamCA: String?

    @Option(name: .customLong("redact"), help: "A query parameter, header or JSON member name to redact besides the built-in ones (repeatable).")
    var redact: [String] = []

    @Option(name: .customLong("upstream-timeout"), help: "Seconds the upstream may take to answer one request (a subscribe long-poll takes minutes).")
    var upstreamTimeout = 330.0

    @Option(name: .customLong("max-file-bytes"), help: "Uploaded files up to this size are kept in the recording (larger ones by size only).")
    var maxFileBytes = 5 << 20

    @Option(help: "A note kept in the recording (what was run).")
    var note: String?

    @Option(name: .customLong("log-level"), help: "Lowest level logged: trace, debug, info (each request), notice, warning, error, critical.")
    var logLevel = "info"

    @Flag(name: .customLong("quiet"), help: "Do not log requests.")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        if let tlsPort, !(0...65535).contains(tlsPort) { throw ValidationError("--tls-port must be 0...65535, got \(tlsPort)") }
        if caOut != nil && tlsPort == nil { throw ValidationError("--tls-ca-out needs --tls-port") }
        guard upstreamTimeout > 0, upstreamTimeout.isFinite else { throw ValidationError("--upstream-timeout must be positive") }
        guard maxFileBytes >= 0 else { throw ValidationError("--max-file-bytes must be >= 0") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
        if HostName.numeric(host) == nil { throw ValidationError("--host: cannot resolve '\(host)'") }
        do { _ = try UpstreamOrigin(parsing: upstream) } catch { throw ValidationError("--upstream: \(error)") }
    }

    func run() async throws {
        var logger = Logger(label: "pubnub-harness-record")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = try RecordingProxyConfiguration(upstream: UpstreamOrigin(parsing: upstream), output: out)
        configuration.transport.host = HostName.numeric(host) ?? host
        configuration.transport.port = port
        configuration.transport.tlsPort = tlsPort
        configuration.transport.requestLogLevel = quiet ? nil : .info
        if let upstreamCA {
            _ = try readInput(upstreamCA, what: "upstream CA")
            configuration.upstreamTrust = .file(upstreamCA)
        }
        configuration.redact = redact
        configuration.upstreamTimeout = upstreamTimeout
        configuration.maxFileBytes = maxFileBytes
        configuration.note = note
        configuration.tool = "pubnub-harness \(HarnessVersion.current)"
        do { try ReportFiles.prepare(out) } catch { throw UsageError("\(error)") }
        let proxy: RecordingProxy
        do throws(ProxyError) {
            proxy = try RecordingProxy(configuration: configuration, logger: logger)
            try proxy.start()
        } catch {
            switch error {
            case .upstreamTrust, .invalidUpstream, .output: throw UsageError("\(error)")
            case .listen: throw CLIFailure("\(error)")
            }
        }
        if let caOut {
            do { try proxy.tlsMaterial.writeCertificateAuthority(toFile: caOut) } catch {
                await proxy.shutdown()
                throw CLIFailure("--tls-ca-out \(caOut): \(error)")
            }
        }
        let signals = SignalWaiter.install()
        if let address = proxy.address { say("recording proxy on http://\(address.host):\(address.port) -> \(configuration.upstream)") }
        if let tls = proxy.tlsAddress { say("recording proxy on https://\(tls.host):\(tls.port) -> \(configuration.upstream)") }
        if let caOut { say("test CA written to \(caOut)") }
        say("recording to \(out) (SIGINT or SIGTERM ends the recording)")
        let signal = await signals.wait()
        say("received \(signal), stopping")
        await proxy.shutdown()
        say("recorded \(proxy.recordedCount) exchanges to \(out)")
        if let failure = proxy.writeFailure { throw CLIFailure("\(failure)") }
    }
}
