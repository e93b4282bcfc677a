// SPDX-License-Identifier: MIT
import HarnessHTTPClient

/// What the runtime reads from an open socket, in arrival order.
enum PusherSocketEvent: Sendable, Hashable {
    case text(String)
    /// A ping (already answered) or a pong.
    case controlFrame
    /// The server's close frame (already answered); the socket is closed.
    case closed(code: Int?, reason: String)
    /// The socket failed or ended without a close frame; it is closed.
    case failed(PusherTransportError)
}

/// An open WebSocket as the runtime drives it; used only on the runtime's thread.
protocol PusherSocket: AnyObject {
    /// The descriptor to poll for input.
    var fileDescriptor: Int32 { get }
    /// Whether input is buffered where `poll` cannot see it (TLS, or bytes read with the upgrade answer).
    var hasBufferedInput: Bool { get }
    /// Decodes buffered input, after reading from the socket when `poll` found it readable.
    func read(socketReadable: Bool) -> [PusherSocketEvent]
    func send(text: String) throws(PusherTransportError)
    /// Starts the close handshake with `code`.
    func sendClose(code: Int)
    /// Closes the socket at once.
    func abort()
}

/// Opens sockets; the runtime calls it on its own thread, and `cancel` aborts an open in progress.
protocol PusherSocketOpener: Sendable {
    func open(cancel: CancellationSignal) -> Result<any PusherSocket, PusherTransportError>
}
