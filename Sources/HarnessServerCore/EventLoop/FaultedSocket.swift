// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix

/// An accepted socket that never speaks HTTP: it carries out a listener fault that needs no TLS library.
final class FaultedSocket: LoopHandler {
    enum Behaviour: Equatable {
        /// Send FIN at once (then discard input until the peer closes).
        case finNow
        /// Abort with RST at once.
        case resetNow
        /// Never read nor write; close only when the peer does or the server stops.
        case stall
        /// Wait for the first bytes (the ClientHello), then FIN.
        case finAfterFirstBytes
        /// Wait for the first bytes, then RST.
        case resetAfterFirstBytes
        /// Wait for the first bytes, answer a plain HTTP 400, then FIN.
        case plainHTTPAfterFirstBytes

        /// The behaviour for `fault`, or `nil` when the fault needs a real stream (plain or TLS).
        init?(_ fault: ListenerFault) {
            switch fault {
            case .closeOnAccept: self = .finNow
            case .resetOnAccept: self = .resetNow
            case .stallOnAccept, .tlsStallHandshake: self = .stall
            case .tlsAbortAfterClientHello: self = .finAfterFirstBytes
            case .tlsResetDuringHandshake: self = .resetAfterFirstBytes
            case .tlsPlainHTTP: self = .plainHTTPAfterFirstBytes
            default: return nil
            }
        }
    }

    /// What a plain HTTP server on a TLS port answers to a ClientHello.
    static let plainHTTPAnswer = Array(
        ("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n"
            + "Connection: close\r\n\r\nBad Request").utf8)

    let fd: Int32
    let behaviour: Behaviour
    let loop: EventLoop
    let core: ServerCore
    var registration: UInt64 = 0
    var draining = false
    var closed = false
    var drainTimer: TimerHandle?

    init(fd: Int32, behaviour: Behaviour, loop: EventLoop, core: ServerCore) {
        self.fd = fd
        self.behaviour = behaviour
        self.loop = loop
        self.core = core
    }

    func start() {
        if behaviour == .resetNow {
            _ = cposix_set_linger_reset(fd)
            Glibc.close(fd)
            core.openConnections.subtract(1, ordering: .relaxed)
            closed = true
            return
        }
        let events = behaviour == .stall ? cposix_EPOLLRDHUP : cposix_EPOLLIN | cposix_EPOLLRDHUP
        guard let id = loop.register(fd: fd, events: events, handler: self) else {
            Glibc.close(fd)
            core.openConnections.subtract(1, ordering: .relaxed)
            closed = true
            return
        }
        registration = id
        if behaviour == .finNow { sendFIN() }
    }

    func handleEvents(_ events: UInt32) {
        guard !closed else { return }
        if behaviour == .stall {
            // Only hang-ups are requested: the peer went away.
            close(reset: false)
            return
        }
        var sawBytes = false
        for _ in 0..<8 {
            let n = Glibc.read(fd, loop.scratch.baseAddress, loop.scratch.count)
            if n > 0 {
                sawBytes = true
                continue
            }
            if n == 0 {
                close(reset: false)
                return
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { break }
            close(reset: false)
            return
        }
        guard sawBytes, !draining else { return }
        switch behaviour {
        case .finAfterFirstBytes:
            sendFIN()
        case .resetAfterFirstBytes:
            close(reset: true)
        case .plainHTTPAfterFirstBytes:
            _ = Self.plainHTTPAnswer.withUnsafeBytes { cposix_send(fd, $0.baseAddress, $0.count) }
            sendFIN()
        default:
            break
        }
    }

    /// Half-closes, then keeps reading until the peer closes (bounded), so the FIN is not turned into a RST.
    private func sendFIN() {
        draining = true
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        drainTimer = loop.schedule(afterNanos: core.finDrainNanos) { [weak self] in self?.close(reset: false) }
    }

    func closeForShutdown() { close(reset: false) }

    private func close(reset: Bool) {
        guard !closed else { return }
        closed = true
        drainTimer?.cancel()
        if reset { _ = cposix_set_linger_reset(fd) }
        loop.deregister(fd: fd, id: registration)
        Glibc.close(fd)
        core.openConnections.subtract(1, ordering: .relaxed)
    }
}
