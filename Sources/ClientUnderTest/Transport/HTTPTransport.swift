// SPDX-License-Identifier: MIT
import HarnessHTTPClient

/// The client's HTTP layer: one ``HTTPClient`` connection per request (`Connection: close`), its
/// failures are ``TransportError`` values, each read as one status category.
public final class HTTPTransport: Sendable {
    let client: HTTPClient

    /// - Parameter trustedCA: nil for plain HTTP.
    public init(host: String, port: Int, trustedCA: PubNubTrustedCA?, userAgent: String) throws(TransportError) {
        client = try HTTPClient(host: host, port: port, trust: trustedCA.map(\.httpTrust), userAgent: userAgent, keepAlive: false)
    }

    public var host: String { client.host }
    public var port: Int { client.port }

    /// Performs the request with one overall deadline; `cancel` aborts it from any thread.
    public func perform(_ request: HTTPClientRequest, timeout: Double, cancel: CancellationSignal = CancellationSignal())
        async -> Result<HTTPClientResponse, TransportError>
    {
        await client.perform(request, timeout: timeout, cancel: cancel)
    }
}

extension PubNubTrustedCA {
    var httpTrust: HTTPTrust {
        switch self {
        case .file(let path): .file(path)
        case .pem(let pem): .pem(pem)
        case .system: .system
        }
    }
}
