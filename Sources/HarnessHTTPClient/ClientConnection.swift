// SPDX-License-Identifier: MIT
import COpenSSL

/// A connected byte stream, plain TCP or TLS (same trust and checks as ``HTTPClient``), for
/// protocols that take the connection over, such as a WebSocket after its upgrade.
///
/// Blocking: every call waits on `poll` up to its timeout and can be aborted through the
/// ``CancellationSignal`` given at connect. Not for concurrent use: one thread sends and receives.
// @unchecked Sendable: the stream is used by one thread at a time (the owner's I/O thread); only
// the cancellation signal, itself Sendable, is meant to be touched from elsewhere.
public final class ClientConnection: @unchecked Sendable {
    private let stream: any ByteStream

    private init(stream: any ByteStream) {
        self.stream = stream
    }

    /// Connects to `host:port`, with a TLS handshake when `trust` is given, within `timeout` seconds.
    public static func connect(host: String, port: Int, trust: HTTPTrust?, timeout: Double, cancel: CancellationSignal)
        throws(HTTPClientError) -> ClientConnection
    {
        let deadline = Deadline(secondsFromNow: timeout)
        let tls = try trust.map { trust throws(HTTPClientError) in try TLSContext(trust: trust) }
        let fd = try TCPConnector.connect(host: host, port: port, deadline: deadline, cancel: cancel)
        let plain = PlainStream(fd: fd, cancel: cancel)
        guard let tls else { return ClientConnection(stream: plain) }
        return ClientConnection(stream: try ClientTLSStream(plain: plain, context: tls, host: host, deadline: deadline))
    }

    /// The socket, for `poll` by the owner (readable data may also wait inside TLS: see ``hasBufferedBytes``).
    public var fileDescriptor: Int32 { stream.fd }

    /// Whether decrypted bytes wait inside the TLS layer, invisible to `poll` on the socket.
    public var hasBufferedBytes: Bool {
        guard let tls = stream as? ClientTLSStream else { return false }
        return tls.pendingByteCount > 0
    }

    /// Sends every byte within `timeout` seconds.
    public func send(_ bytes: [UInt8], timeout: Double) throws(HTTPClientError) {
        try stream.send(bytes, deadline: Deadline(secondsFromNow: timeout))
    }

    /// Up to `maxCount` bytes within `timeout` seconds; empty at end of stream.
    public func receive(maxCount: Int, timeout: Double) throws(HTTPClientError) -> [UInt8] {
        try stream.receive(maxCount: maxCount, deadline: Deadline(secondsFromNow: timeout))
    }

    /// Closes the socket.
    public func close() {
        stream.close()
    }
}
