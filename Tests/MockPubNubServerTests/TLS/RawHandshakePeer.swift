// SPDX-License-Identifier: MIT
import Glibc

/// A test-only plain TCP peer that plays the pre-handshake TLS faults (which the event-loop
/// listener implements on the raw socket) so that the client-side view of each can be pinned down.
final class RawHandshakePeer: Sendable {
    enum Behaviour: Sendable {
        /// Read the ClientHello, then close with FIN.
        case closeAfterClientHello
        /// Read the ClientHello, then abort with RST (SO_LINGER 0).
        case resetAfterClientHello
        /// Read the ClientHello and never answer; return when the client gives up and closes.
        case stall
        /// Read the ClientHello and answer with these plain bytes, then close.
        case answer([UInt8])
    }

    let port: UInt16
    private let listenFD: Int32
    private let behaviour: Behaviour

    init(_ behaviour: Behaviour) throws {
        signal(SIGPIPE, SIG_IGN)
        (listenFD, port) = try TestSockets.listenLoopback()
        self.behaviour = behaviour
    }

    deinit { close(listenFD) }

    /// Serves one connection (blocking, bounded by `seconds`) and returns the first bytes received.
    func serveOne(seconds: Int = 5) -> [UInt8] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        guard TestSockets.wait(listenFD, for: Int16(POLLIN), until: deadline) else { return [] }
        let fd = accept(listenFD, nil, nil)
        guard fd >= 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        guard TestSockets.wait(fd, for: Int16(POLLIN), until: deadline) else {
            close(fd)
            return []
        }
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        let hello = n > 0 ? Array(buffer[0..<n]) : []
        switch behaviour {
        case .closeAfterClientHello:
            close(fd)
        case .resetAfterClientHello:
            var abortive = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size))
            close(fd)
        case .stall:
            for _ in 0..<100 {
                guard TestSockets.wait(fd, for: Int16(POLLIN), until: deadline) else { break }
                let r = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if r <= 0 { break }
            }
            close(fd)
        case .answer(let bytes):
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            _ = shutdown(fd, Int32(SHUT_WR))
            for _ in 0..<100 {  // drain until the client closes, so our close sends FIN rather than RST
                guard TestSockets.wait(fd, for: Int16(POLLIN), until: deadline) else { break }
                let r = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if r <= 0 { break }
            }
            close(fd)
        }
        return hello
    }
}
