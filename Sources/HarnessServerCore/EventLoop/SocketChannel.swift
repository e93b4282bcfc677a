// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix

/// One accepted socket on its event loop, below whatever protocol speaks on it: the descriptor,
/// its stream (plain or TLS), the epoll registration and interest, the outbound buffer, the
/// write-out and the read rounds, and the release. The HTTP connection owns one; an upgrade hands
/// the same channel (registration included) to the `WebSocketConnection`.
///
/// Loop thread only, like its owner.
final class SocketChannel {
    /// How a `flush` ended.
    enum FlushOutcome {
        /// Everything queued is written (also when nothing was).
        case drained
        /// The socket takes no more now; the interest waits for the retry.
        case blocked
        /// The stream failed or the peer is gone.
        case failed
    }

    /// Why a `readRounds` call stopped.
    enum ReadOutcome {
        /// Nothing more to read now (or the rounds of this event are used up).
        case waiting
        /// The owner refused more input (`canRead` returned false).
        case refused
        /// The peer closed its sending side.
        case eof
        /// The stream failed (reset, TLS alert).
        case failed
    }

    // Stored in this order so that the small fields share words (one channel per connection).
    let loop: EventLoop
    let core: ServerCore
    let stream: any StreamIO
    /// A process-unique number (journal, logs, `WebSocketHandle.id`).
    let connectionID: UInt64
    /// The peer as `host:port`.
    let peer: String
    private(set) var registration: UInt64 = 0
    // Unchecked: loop thread only; the access spanning a write calls only the stream, which never
    // refers back to its channel.
    @exclusivity(unchecked) private var output = OutboundBuffer()
    /// Whether `output` holds bytes, kept beside it (set by `enqueue`, cleared by a `flush` that
    /// drains it and by `release`): the interest and the flush ask a plain flag, not the buffer,
    /// whose accesses stay dynamically checked for exclusivity (its write calls the stream).
    private var hasOutput = false
    let fd: Int32
    private var interest: UInt32 = 0
    private let port: UInt16
    let isTLS: Bool
    /// A read returned `wantWrite` (TLS): retry it when the socket is writable.
    private(set) var readWantsWrite = false
    /// A write returned `wantRead` (TLS): retry it when the socket is readable.
    private(set) var writeWantsRead = false
    /// The descriptor is closed (or was never registered).
    private(set) var isReleased = false

    init(loop: EventLoop, core: ServerCore, fd: Int32, stream: any StreamIO, localPort: Int, isTLS: Bool) {
        self.loop = loop
        self.core = core
        self.fd = fd
        self.stream = stream
        port = UInt16(clamping: localPort)
        self.isTLS = isTLS
        connectionID = core.nextConnectionID()
        peer = SocketAddress.peer(of: fd)
    }

    /// Registers with the loop for input; on failure closes the socket and returns false.
    func register(handler: any LoopHandler) -> Bool {
        interest = cposix_EPOLLIN | cposix_EPOLLRDHUP
        guard let id = loop.register(fd: fd, events: interest, handler: handler) else {
            isReleased = true
            Glibc.close(fd)
            core.openConnections.subtract(1, ordering: .relaxed)
            return false
        }
        registration = id
        return true
    }

    /// Hands the registration to the socket's next owner (an upgrade): its events go there now.
    func handOver(to handler: any LoopHandler) {
        loop.rebind(id: registration, to: handler)
    }

    /// Sets the epoll interest: input when `reading` (or a write waits for it), output when
    /// `writing`, bytes are queued or a read waits for it. Touches epoll only on a change.
    func updateInterest(reading: Bool, writing: Bool = false) {
        guard !isReleased else { return }
        var wanted = cposix_EPOLLRDHUP
        if reading || writeWantsRead { wanted |= cposix_EPOLLIN }
        if writing || hasOutput || readWantsWrite { wanted |= cposix_EPOLLOUT }
        if wanted != interest {
            interest = wanted
            loop.modify(fd: fd, id: registration, events: wanted)
        }
    }

    /// The listener's port.
    var localPort: Int { Int(port) }

    /// Whether bytes wait to be written.
    var outputPending: Bool { hasOutput }

    /// Whether `events` (or a write waiting for input) call for a `flush` first.
    var wantsFlush: Bool { hasOutput || writeWantsRead }

    /// The number of bytes queued and not yet written.
    var pendingCount: Int { output.pendingCount }

    /// Whether the outbound buffer holds storage (an idle channel holds none).
    var holdsOutputStorage: Bool { output.holdsStorage }

    /// The epoll events the channel waits for now.
    var currentInterest: UInt32 { interest }

    /// Queues `bytes` (shared, not copied, unless two pieces already wait).
    func enqueue(_ bytes: consuming [UInt8]) {
        guard !bytes.isEmpty else { return }
        output.append(bytes)
        hasOutput = true
    }

    /// Queues a response as its head and its body; the body array is shared with every other
    /// connection answered with it, and both leave in one gather write.
    /// (Consumed: the arrays are moved into the buffer, not retained once more.)
    func enqueue(head: consuming [UInt8], body: consuming [UInt8]) {
        if !head.isEmpty || !body.isEmpty { hasOutput = true }
        output.append(head)
        output.append(body)
    }

    /// Writes queued bytes until none are left or the socket is full; the storage of written
    /// bytes is released, so a drained channel holds no buffer.
    func flush() -> FlushOutcome {
        writeWantsRead = false
        while hasOutput && !isReleased {
            let (result, drained) = output.writeOutReportingEmpty { stream.write(gathering: $0) }
            hasOutput = !drained
            switch result {
            case .bytes:
                continue
            case .wantWrite:
                return .blocked
            case .wantRead:
                writeWantsRead = true
                return .blocked
            case .eof, .failed:
                return .failed
            }
        }
        return isReleased ? .failed : .drained
    }

    /// Reads what is available, at most 8 reads for fairness between connections, and hands each
    /// chunk to `consume` (the bytes live in the loop's shared buffer until `consume` returns).
    /// `canRead` is asked before every read; a short plain read ends the rounds (nothing more is
    /// readable now) unless the peer hung up, then reading goes on to the end of stream.
    func readRounds(peerHungUp: Bool, canRead: () -> Bool, consume: (UnsafeRawBufferPointer) -> Void) -> ReadOutcome {
        readWantsWrite = false
        var rounds = 0
        while rounds < 8 {
            guard !isReleased, canRead() else { return .refused }
            rounds += 1
            switch stream.read(into: loop.scratch) {
            case .bytes(let count):
                let drained = count < loop.scratch.count && stream.shortReadDrains
                consume(UnsafeRawBufferPointer(rebasing: loop.scratch[0..<count]))
                // Saves the read that would only return EAGAIN (one system call per request).
                if drained && !peerHungUp { return .waiting }
            case .wantRead:
                return .waiting
            case .wantWrite:
                readWantsWrite = true
                return .waiting
            case .eof:
                return .eof
            case .failed:
                return .failed
            }
        }
        return .waiting
    }

    /// Ends the sending direction (FIN; TLS: close_notify first).
    func shutdownWrite() {
        stream.shutdownWrite()
    }

    /// Bytes the kernel still holds unacknowledged (SIOCOUTQ), or -1.
    var unsentBytes: Int { Int(cposix_unsent_bytes(fd)) }

    /// Leaves the epoll set, closes the descriptor (with RST when `reset`) and drops the buffer.
    func release(reset: Bool) {
        guard !isReleased else { return }
        isReleased = true
        output.removeAll()
        hasOutput = false
        if reset { _ = cposix_set_linger_reset(fd) }
        loop.deregister(fd: fd, id: registration)
        Glibc.close(fd)
        core.openConnections.subtract(1, ordering: .relaxed)
    }
}
