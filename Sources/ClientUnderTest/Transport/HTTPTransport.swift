// SPDX-License-Identifier: MIT
import Foundation

/// Sends HTTP/1.1 requests on a fresh connection each (`Connection: close`), each on its own
/// dedicated thread, and bridges the outcome back to async code with a continuation.
public final class HTTPTransport: Sendable {
    public let host: String
    public let port: Int
    let tls: TLSContext?
    let userAgent: String

    /// - Parameter trustedCA: nil for plain HTTP.
    public init(host: String, port: Int, trustedCA: PubNubTrustedCA?, userAgent: String) throws(TransportError) {
        self.host = host
        self.port = port
        self.tls = try trustedCA.map { ca throws(TransportError) in try TLSContext(trustedCA: ca) }
        self.userAgent = userAgent
    }

    var hostHeader: String {
        let defaultPort = tls == nil ? 80 : 443
        let name = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? name : "\(name):\(port)"
    }

    /// Performs the request with one overall deadline; `cancel` aborts it from any thread.
    public func perform(_ request: HTTPClientRequest, timeout: Double, cancel: CancellationSignal = CancellationSignal())
        async -> Result<HTTPClientResponse, TransportError>
    {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in
                continuation.resume(returning: self.performBlocking(request, timeout: timeout, cancel: cancel))
            }
            thread.name = "pubnub-http"
            thread.start()
        }
    }

    /// The blocking implementation; runs on the calling (dedicated) thread.
    func performBlocking(_ request: HTTPClientRequest, timeout: Double, cancel: CancellationSignal)
        -> Result<HTTPClientResponse, TransportError>
    {
        let deadline = Deadline(secondsFromNow: timeout)
        do throws(TransportError) {
            let fd = try TCPConnector.connect(host: host, port: port, deadline: deadline, cancel: cancel)
            let plain = PlainStream(fd: fd, cancel: cancel)
            let stream: any ByteStream = if let tls {
                try TLSStream(plain: plain, context: tls, host: host, deadline: deadline)
            } else {
                plain
            }
            defer { stream.close() }
            try stream.send(request.encode(hostHeader: hostHeader, userAgent: userAgent), deadline: deadline)
            var reader = HTTPResponseReader(stream: stream, deadline: deadline)
            return .success(try reader.read())
        } catch {
            return .failure(cancel.isCancelled ? .cancelled : error)
        }
    }
}
