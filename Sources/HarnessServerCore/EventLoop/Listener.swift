// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix
import Synchronization

/// The thread-safe side of a listener: its socket, its fault settings and its per-connection fault queue.
final class ListenerControl: Sendable {
    let fd: Int32
    let host: String
    let port: Int
    let defaultFault: ListenerFault
    let factory: StreamFactory
    private let queued = Mutex<[ListenerFault]>([])
    private let closed = Atomic<Bool>(false)

    init(fd: Int32, host: String, port: Int, defaultFault: ListenerFault, factory: StreamFactory) {
        self.fd = fd
        self.host = host
        self.port = port
        self.defaultFault = defaultFault
        self.factory = factory
    }

    /// Queues faults for the next accepted connections, in order.
    func enqueue(_ faults: [ListenerFault]) { queued.withLock { $0.append(contentsOf: faults) } }

    /// The fault for the next accepted connection.
    func nextFault() -> ListenerFault {
        queued.withLock { $0.isEmpty ? nil : $0.removeFirst() } ?? defaultFault
    }

    /// Closes the listening socket once, whoever gets there first (its loop or `stop`).
    func closeOnce() {
        if !closed.exchange(true, ordering: .acquiringAndReleasing) { Glibc.close(fd) }
    }

    var isClosed: Bool { closed.load(ordering: .acquiring) }
}

/// The loop side of a listener: accepts until EAGAIN and spreads connections over the loops.
final class Listener: LoopHandler {
    let control: ListenerControl
    let loop: EventLoop
    let group: EventLoopGroup
    let core: ServerCore
    var registration: UInt64 = 0
    var paused = false

    init(control: ListenerControl, loop: EventLoop, group: EventLoopGroup, core: ServerCore) {
        self.control = control
        self.loop = loop
        self.group = group
        self.core = core
    }

    func start() {
        guard !control.isClosed, let id = loop.register(fd: control.fd, events: cposix_EPOLLIN, handler: self) else {
            control.closeOnce()
            return
        }
        registration = id
    }

    func stop() {
        if !control.isClosed { loop.deregister(fd: control.fd, id: registration) }
        control.closeOnce()
    }

    func closeForShutdown() { stop() }

    func handleEvents(_ events: UInt32) {
        guard !paused else { return }
        for _ in 0..<128 {
            let fd = cposix_accept_nonblocking(control.fd)
            if fd < 0 {
                let code = errno  // errno is only valid right after the -1 return
                switch code {
                case EINTR, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    pauseAccepting()
                    return
                default:
                    return  // EAGAIN: the backlog is empty
                }
            }
            core.openConnections.add(1, ordering: .relaxed)
            _ = cposix_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            let fault = control.nextFault()
            let target = group.next()
            if target === loop {
                adopt(fd: fd, fault: fault, on: loop)
            } else {
                let control = self.control, core = self.core
                target.execute {
                    Listener.adopt(fd: fd, fault: fault, control: control, core: core, on: target)
                }
            }
        }
    }

    /// Out of descriptors: stop accepting for 100 ms and keep serving the open connections.
    private func pauseAccepting() {
        paused = true
        loop.modify(fd: control.fd, id: registration, events: 0)
        loop.schedule(afterNanos: 100_000_000) { [weak self] in
            guard let self, !self.control.isClosed else { return }
            self.paused = false
            self.loop.modify(fd: self.control.fd, id: self.registration, events: cposix_EPOLLIN)
        }
    }

    private func adopt(fd: Int32, fault: ListenerFault, on loop: EventLoop) {
        Listener.adopt(fd: fd, fault: fault, control: control, core: core, on: loop)
    }

    /// Starts serving an accepted socket on `loop` (its thread), applying `fault`.
    static func adopt(fd: Int32, fault: ListenerFault, control: ListenerControl, core: ServerCore, on loop: EventLoop) {
        if loop.isStopped {
            Glibc.close(fd)
            core.openConnections.subtract(1, ordering: .relaxed)
            return
        }
        core.diagnostics?(.connection(ConnectionEvent(kind: .accepted, localPort: control.port, detail: fault.rawValue)))
        if let behaviour = FaultedSocket.Behaviour(fault) {
            FaultedSocket(fd: fd, behaviour: behaviour, loop: loop, core: core).start()
            return
        }
        let stream: any StreamIO
        do {
            stream = try control.factory.make(fd, fault)
        } catch {
            _ = cposix_set_linger_reset(fd)
            Glibc.close(fd)
            core.openConnections.subtract(1, ordering: .relaxed)
            return
        }
        Connection(loop: loop, core: core, fd: fd, stream: stream, localPort: control.port, isTLS: control.factory.isTLS)
            .start()
    }
}
