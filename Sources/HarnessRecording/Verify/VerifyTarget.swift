// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessJSON
import MockPubNubServer

/// Why `verify` cannot replay at all.
public enum VerifyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The in-process mock could not start.
    case serverStart(String)
    /// The `--server` does not answer its health check.
    case serverUnreachable(String)
    /// A keyset could not be registered with the target.
    case keyset(String)
    /// A rule of the recording is not a path pattern.
    case rules(RecordingError)

    public var description: String {
        switch self {
        case .serverStart(let reason): "cannot start the mock: \(reason)"
        case .serverUnreachable(let reason): "the server does not answer: \(reason)"
        case .keyset(let reason): "cannot register a keyset: \(reason)"
        case .rules(let error): "\(error)"
        }
    }
}

/// Where `verify` replays: a mock in this process, or a running `serve`.
public protocol VerifyTarget: Sendable {
    /// The plain HTTP listener.
    var host: String { get }
    var port: Int { get }
    /// What reports name it (`in-process mock`, `127.0.0.1:8090`).
    var name: String { get }
    /// Turns Access Manager on for a keyset.
    func register(_ keyset: Keyset) async throws(VerifyError)
}

/// A mock server of this process on a free loopback port.
public final class InProcessVerifyTarget: VerifyTarget {
    public let server: MockServer
    public let host = "127.0.0.1"
    public let port: Int
    public let name = "in-process mock"

    /// Starts the mock (`configure` adjusts its configuration first).
    public init(configure: (inout MockServerConfiguration) -> Void = { _ in }) throws(VerifyError) {
        var configuration = MockServerConfiguration.loopback(tls: false)
        configure(&configuration)
        do {
            server = try MockServer(configuration: configuration)
            port = try server.start().port
        } catch {
            throw .serverStart("\(error)")
        }
    }

    public func register(_ keyset: Keyset) async throws(VerifyError) {
        server.service.register(keyset)
    }

    /// Stops the mock without blocking the concurrency pool.
    public func shutdown() async { await server.shutdown() }
}

/// A running `pubnub-harness serve` (its `/__admin/` API registers keysets).
public struct RemoteVerifyTarget: VerifyTarget {
    public let host: String
    public let port: Int
    public var name: String { "\(host):\(port)" }
    private let client: HTTPClient

    /// Checks `GET /__admin/health` first.
    public init(host: String, port: Int) async throws(VerifyError) {
        self.host = host
        self.port = port
        do throws(HTTPClientError) {
            client = try HTTPClient(host: host, port: port, trust: nil, userAgent: "pubnub-harness-verify")
        } catch {
            throw .serverUnreachable(error.description)
        }
        switch await client.perform(HTTPClientRequest(target: "/__admin/health"), timeout: 10) {
        case .success(let response) where response.statusCode == 200: return
        case .success(let response): throw .serverUnreachable("GET /__admin/health answered \(response.statusCode)")
        case .failure(let error): throw .serverUnreachable(error.description)
        }
    }

    public func register(_ keyset: Keyset) async throws(VerifyError) {
        let body: JSONValue = [
            "subscribeKey": .string(keyset.subscribeKey), "publishKey": .string(keyset.publishKey), "secretKey": .string(keyset.secretKey),
        ]
        let request = HTTPClientRequest(method: "POST", target: "/__admin/keysets", body: body.jsonBytes)
        switch await client.perform(request, timeout: 10) {
        case .success(let response) where (200..<300).contains(response.statusCode): return
        case .success(let response): throw .keyset("POST /__admin/keysets answered \(response.statusCode)")
        case .failure(let error): throw .keyset(error.description)
        }
    }
}
