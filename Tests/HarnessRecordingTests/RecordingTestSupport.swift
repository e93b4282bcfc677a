// SPDX-License-Identifier: MIT
import ConformanceKit
import Foundation
import HarnessRecording
import MockPubNubServer
import Testing

/// Upstreams, proxies and verification for the recording tests: everything on 127.0.0.1, port 0.
enum RecordingHarness {
    /// A fresh file path in the temporary folder.
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("harness-rec-\(UUID().uuidString)-\(name)").path
    }

    /// A started in-process mock (plain and TLS) with `keysets`.
    static func startUpstream(keysets: [Keyset] = []) throws -> MockServer {
        var configuration = MockServerConfiguration.loopback(tls: true)
        configuration.keysets = keysets
        let server = try MockServer(configuration: configuration)
        try server.start()
        return server
    }

    /// A started recording proxy in front of `upstream` (`http://127.0.0.1:port`), with a TLS listener.
    static func startProxy(upstream: String, output: String, trust: HTTPTrustChoice = .system,
                           redact: [String] = []) throws -> RecordingProxy {
        var configuration = RecordingProxyConfiguration(upstream: try UpstreamOrigin(parsing: upstream), output: output)
        configuration.transport.tlsPort = 0
        configuration.redact = redact
        if case .pem(let pem) = trust { configuration.upstreamTrust = .pem(pem) }
        let proxy = try RecordingProxy(configuration: configuration)
        try proxy.start()
        return proxy
    }

    enum HTTPTrustChoice {
        case system
        case pem(String)
    }

    /// The recording file's text and its decoded value.
    static func read(_ path: String) throws -> (text: String, recording: Recording) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return (String(decoding: bytes, as: UTF8.self), try Recording.decode(bytes))
    }

    /// Replays `recording` against a fresh in-process mock.
    static func verify(_ recording: Recording, keepTiming: Bool = true) async throws -> [ExchangeVerdict] {
        let target = try InProcessVerifyTarget()
        do {
            let verdicts = try await Replayer(recording: recording, target: target, options: VerifyOptions(keepTiming: keepTiming)).run()
            await target.shutdown()
            return verdicts
        } catch {
            await target.shutdown()
            throw error
        }
    }

    /// One line per verdict that is not a pass or a skip, for failure messages.
    static func problems(_ verdicts: [ExchangeVerdict]) -> [String] {
        verdicts.filter { $0.outcome == .fail || $0.outcome == .error }.map { verdict in
            "#\(verdict.id) \(verdict.request): \(verdict.outcome.rawValue) \(verdict.note ?? "") "
                + verdict.differences.map(\.description).joined(separator: "; ")
        }
    }
}

/// A harness server whose clients go through a recording proxy: the addresses and CA are the
/// proxy's, everything else (keysets, plans, journals) is the wrapped server's.
struct ProxiedHarnessServer: HarnessServer {
    let wrapped: any HarnessServer
    let address: String
    let tlsAddress: String?
    let proxyCA: String

    func caPEM() async throws -> String? { proxyCA }
    func installPlan(json: JSONValue, subscribeKey: String) async throws { try await wrapped.installPlan(json: json, subscribeKey: subscribeKey) }
    func clearPlan(subscribeKey: String) async throws { try await wrapped.clearPlan(subscribeKey: subscribeKey) }
    func journal(subscribeKey: String) async throws -> [JournalEntry] { try await wrapped.journal(subscribeKey: subscribeKey) }
    func openListener(fault: String) async throws -> Int { try await wrapped.openListener(fault: fault) }
    func closeListener(port: Int) async throws { try await wrapped.closeListener(port: port) }
    func connectionEvents(port: Int) async throws -> [ConnectionEvent] { try await wrapped.connectionEvents(port: port) }
    func refusedPort() async throws -> Int { try await wrapped.refusedPort() }
    func registerKeyset(subscribeKey: String, publishKey: String, secretKey: String) async throws {
        try await wrapped.registerKeyset(subscribeKey: subscribeKey, publishKey: publishKey, secretKey: secretKey)
    }
    func grant(_ grant: Grant, subscribeKey: String) async throws { try await wrapped.grant(grant, subscribeKey: subscribeKey) }
    func publish(subscribeKey: String, publishKey: String, channel: String, message: String) async throws {
        try await wrapped.publish(subscribeKey: subscribeKey, publishKey: publishKey, channel: channel, message: message)
    }
    func request(method: String, path: String, query: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8]) {
        try await wrapped.request(method: method, path: path, query: query, body: body)
    }
}

/// Waits until `condition` holds (state another thread settles), checking every 5 ms, at most
/// `seconds` stretched by the load; the last answer.
func eventually(within seconds: Double = 10, _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + TestTime.duration(seconds)
    while clock.now < deadline {
        if condition() { return true }
        await ProgressTime.sleep(for: .milliseconds(5))
    }
    return condition()
}
