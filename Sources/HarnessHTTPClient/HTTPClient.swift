// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 client for one origin, plain or TLS (OpenSSL), on its own non-blocking sockets.
///
/// Each request runs on a dedicated thread (blocking calls stay off the Swift concurrency pool)
/// under one overall deadline, and can be cancelled from any thread. With `keepAlive` the
/// connection is kept after a complete response and reused by the next request; a reused
/// connection the server closed in the meantime is replaced once, transparently, when nothing of
/// a response had arrived on it.
public final class HTTPClient: Sendable {
    public let host: String
    public let port: Int
    public let keepAlive: Bool
    let tls: TLSContext?
    let userAgent: String
    private let idle = Mutex<[any ByteStream]>([])
    /// Idle connections kept at most; more are closed.
    static let maxIdleConnections = 8

    /// - Parameters:
    ///   - trust: the CAs to trust for TLS, or nil for plain HTTP.
    ///   - keepAlive: reuse connections (`Connection: keep-alive`) or use one per request (`Connection: close`).
    public init(host: String, port: Int, trust: HTTPTrust?, userAgent: String, keepAlive: Bool = true) throws(HTTPClientError) {
        self.host = host
        self.port = port
        self.keepAlive = keepAlive
        self.tls = try trust.map { trust throws(HTTPClientError) in try TLSContext(trust: trust) }
        self.userAgent = userAgent
    }

    deinit {
        closeIdleConnections()
    }

    /// `host[:port]` as the Host header carries it (the port is left out when it is the scheme's default).
    public var hostHeader: String {
        let defaultPort = tls == nil ? 80 : 443
        let name = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? name : "\(name):\(port)"
    }

    /// Performs the request with one overall deadline of `timeout` seconds; `cancel` aborts it from any thread.
    public func perform(_ request: HTTPClientRequest, timeout: Double, cancel: CancellationSignal = CancellationSignal())
        async -> Result<HTTPClientResponse, HTTPClientError>
    {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in
                continuation.resume(returning: self.performBlocking(request, timeout: timeout, cancel: cancel))
            }
            thread.name = "harness-http"
            thread.start()
        }
    }

    /// The blocking implementation; runs on the calling thread.
    public func performBlocking(_ request: HTTPClientRequest, timeout: Double, cancel: CancellationSignal = CancellationSignal())
        -> Result<HTTPClientResponse, HTTPClientError>
    {
        let deadline = Deadline(secondsFromNow: timeout)
        let bytes = request.encode(hostHeader: hostHeader, userAgent: userAgent, keepAlive: keepAlive)
        if let reused = takeIdleConnection() {
            reused.cancel = cancel
            switch exchange(bytes, on: reused, deadline: deadline) {
            case .success(let response):
                return .success(response)
            case .failure(let error):
                guard !cancel.isCancelled else { return .failure(.cancelled) }
                guard Self.isStaleConnection(error) else { return .failure(error) }
            }
        }
        do throws(HTTPClientError) {
            let stream = try connect(deadline: deadline, cancel: cancel)
            return exchange(bytes, on: stream, deadline: deadline).mapError { cancel.isCancelled ? .cancelled : $0 }
        } catch {
            return .failure(cancel.isCancelled ? .cancelled : error)
        }
    }

    /// Closes the kept connections (requests in flight are not affected).
    public func closeIdleConnections() {
        for stream in idle.withLock({ pool in defer { pool = [] }; return pool }) { stream.close() }
    }

    /// How many connections are kept for reuse right now.
    public var idleConnectionCount: Int { idle.withLock { $0.count } }

    private func connect(deadline: Deadline, cancel: CancellationSignal) throws(HTTPClientError) -> any ByteStream {
        let fd = try TCPConnector.connect(host: host, port: port, deadline: deadline, cancel: cancel)
        let plain = PlainStream(fd: fd, cancel: cancel)
        guard let tls else { return plain }
        return try ClientTLSStream(plain: plain, context: tls, host: host, deadline: deadline)
    }

    /// Sends the request and reads the response; keeps the connection when it can be reused.
    private func exchange(_ bytes: [UInt8], on stream: any ByteStream, deadline: Deadline) -> Result<HTTPClientResponse, HTTPClientError> {
        do throws(HTTPClientError) {
            try stream.send(bytes, deadline: deadline)
            var reader = HTTPResponseReader(stream: stream, deadline: deadline)
            let response = try reader.read()
            if keepAlive && reader.connectionReusable { keep(stream) } else { stream.close() }
            return .success(response)
        } catch {
            stream.close()
            return .failure(error)
        }
    }

    private func keep(_ stream: any ByteStream) {
        let overflow: (any ByteStream)? = idle.withLock { pool in
            guard pool.count < Self.maxIdleConnections else { return stream }
            pool.append(stream)
            return nil
        }
        overflow?.close()
    }

    /// The newest idle connection that the server has not closed (a readable idle socket means
    /// end of stream or stray bytes: either way it is closed, not reused).
    private func takeIdleConnection() -> (any ByteStream)? {
        while let stream = idle.withLock({ $0.popLast() }) {
            var check = pollfd(fd: stream.fd, events: Int16(POLLIN), revents: 0)
            if poll(&check, 1, 0) == 0 { return stream }
            stream.close()
        }
        return nil
    }

    /// A failure that means the kept connection was already closed by the server before this
    /// request reached it: nothing of a response arrived.
    static func isStaleConnection(_ error: HTTPClientError) -> Bool {
        switch error {
        case .closedBeforeResponse(let received): received == 0
        case .connectionLost(let code, _): code == ECONNRESET || code == EPIPE
        default: false
        }
    }
}
