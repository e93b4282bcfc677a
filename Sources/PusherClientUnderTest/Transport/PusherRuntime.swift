// SPDX-License-Identifier: MIT
import CPosix
import Foundation
import Glibc
import HarnessHTTPClient
import Synchronization

/// What the runtime needs from the outside world: sockets, authorizations, delivery to the app.
struct PusherEnvironment: Sendable {
    let opener: any PusherSocketOpener
    /// Starts an authorization; `finish` may be called from any thread.
    let authorize: @Sendable (PusherAuthorizationRequest, _ finish: @escaping @Sendable (Result<PusherChannelAuthorization, PusherAuthorizationError>) -> Void) -> Void
    /// Delivers one event to the app, on the runtime's thread, in order.
    let deliver: @Sendable (PusherClientEvent) -> Void
    /// Seconds to wait for the server's close frame after the client sent its own.
    var closeTimeout: Double = 2
    /// Starts a user authentication for a socket id; `finish` may be called from any thread.
    var authenticateUser: @Sendable (String, _ finish: @escaping @Sendable (Result<PusherUserAuthentication, PusherAuthorizationError>) -> Void) -> Void
        = { _, finish in finish(.failure(.noAuthorizer)) }
}

/// Runs the state machine on one dedicated thread (blocking socket I/O stays off the Swift
/// concurrency pool): inputs from any thread go through an inbox and an eventfd wake-up; socket
/// input, timers and actions are handled on that thread only, so the machine needs no lock.
final class PusherRuntime: Sendable {
    private let inbox = Mutex<[PusherClientInput]>([])
    private let stopped = Mutex(false)
    /// The cancellation signal of the current socket (its open and all its blocking I/O), so
    /// `stop()` can abort whatever the runtime's thread is blocked in.
    private let socketSignal = Mutex<CancellationSignal?>(nil)
    private let published: Mutex<PusherConnectionMachine>
    let wakeFD: Int32

    init(machine: PusherConnectionMachine, environment: PusherEnvironment) {
        published = Mutex(machine)
        wakeFD = cposix_eventfd()
        let thread = Thread { [self] in
            let loop = PusherEventLoop(runtime: self, machine: machine, environment: environment)
            loop.run()
        }
        thread.name = "pusher-client"
        thread.start()
    }

    deinit {
        if wakeFD >= 0 { close(wakeFD) }
    }

    /// Queues an input for the runtime's thread.
    func post(_ input: PusherClientInput) {
        inbox.withLock { $0.append(input) }
        wake()
    }

    /// Stops the thread: the socket is closed without a handshake, nothing more is delivered.
    func stop() {
        stopped.withLock { $0 = true }
        socketSignal.withLock { $0 }?.cancel()
        wake()
    }

    /// A copy of the machine as of the last processed input.
    var snapshot: PusherConnectionMachine { published.withLock { $0 } }

    // MARK: For the loop

    var isStopped: Bool { stopped.withLock { $0 } }
    func takeInbox() -> [PusherClientInput] { inbox.withLock { pending in defer { pending = [] }; return pending } }
    func publish(_ machine: PusherConnectionMachine) { published.withLock { $0 = machine } }

    /// A fresh signal for the next socket.
    func newSocketSignal() -> CancellationSignal {
        let signal = CancellationSignal()
        socketSignal.withLock { $0 = signal }
        if isStopped { signal.cancel() }
        return signal
    }

    private func wake() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, 8) }
    }

    func drainWake() {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { read(wakeFD, $0.baseAddress, 8) }
    }
}

/// The runtime thread's private state: the machine, the socket, the timers.
private final class PusherEventLoop {
    private let runtime: PusherRuntime
    private var machine: PusherConnectionMachine
    private let environment: PusherEnvironment
    private var socket: (any PusherSocket)?
    /// When the close handshake the client started gives up waiting for the server.
    private var closingDeadline: Int64?
    private var timers: [PusherClientTimer: Int64] = [:]
    private var pending: [PusherClientInput] = []
    private var draining = false

    /// The longest single wait, so a stop request is never missed for long even without a wake-up.
    private static let maxWaitMilliseconds: Int64 = 60_000

    init(runtime: PusherRuntime, machine: PusherConnectionMachine, environment: PusherEnvironment) {
        self.runtime = runtime
        self.machine = machine
        self.environment = environment
    }

    func run() {
        while !runtime.isStopped {
            for input in runtime.takeInbox() where !runtime.isStopped { feed(input) }
            fireDueTimers()
            if runtime.isStopped { break }
            waitAndRead()
        }
        // The client is gone: a close frame the server can read, without waiting for its answer.
        socket?.sendClose(code: 1000)
        socket?.abort()
        socket = nil
    }

    /// Runs the machine on `input` and every input its actions produce, in order.
    private func feed(_ input: PusherClientInput) {
        pending.append(input)
        guard !draining else { return }
        draining = true
        while !pending.isEmpty, !runtime.isStopped {
            let next = pending.removeFirst()
            let actions = machine.handle(next)
            // Published before the actions run, so the app reads the new state in its callbacks.
            runtime.publish(machine)
            for action in actions { execute(action) }
        }
        pending = []
        draining = false
    }

    private func execute(_ action: PusherClientAction) {
        switch action {
        case .openSocket:
            let outcome = environment.opener.open(cancel: runtime.newSocketSignal())
            switch outcome {
            case .success(let opened):
                socket = opened
                pending.append(.socketOpened)
            case .failure(let error):
                pending.append(.socketOpenFailed(error))
            }
        case .send(let text):
            guard let socket else { return }
            do throws(PusherTransportError) {
                try socket.send(text: text)
            } catch {
                socket.abort()
                self.socket = nil
                pending.append(.socketFailed(error))
            }
        case .closeSocket(let code):
            if let socket {
                socket.sendClose(code: code)
                closingDeadline = PusherClock.now() + Int64(environment.closeTimeout * 1000)
            } else {
                pending.append(.socketClosed(code: nil, reason: ""))
            }
        case .abortSocket:
            socket?.abort()
            socket = nil
            closingDeadline = nil
        case .schedule(let timer, let delay):
            timers[timer] = PusherClock.now() + Int64((delay * 1000).rounded(.up))
        case .cancel(let timer):
            timers[timer] = nil
        case .authorize(let request):
            let runtime = self.runtime
            environment.authorize(request) { result in runtime.post(.authorizationFinished(request, result)) }
        case .emit(let event):
            environment.deliver(event)
        case .authenticateUser(let socketID):
            let runtime = self.runtime
            environment.authenticateUser(socketID) { result in runtime.post(.userAuthenticationFinished(socketID: socketID, result)) }
        }
    }

    private func fireDueTimers() {
        let now = PusherClock.now()
        // Bounded: each round removes one due timer, and there are three kinds.
        while let due = timers.filter({ $0.value <= now }).min(by: { $0.value < $1.value })?.key {
            timers[due] = nil
            feed(.timerFired(due))
        }
        if let closingDeadline, closingDeadline <= now {
            self.closingDeadline = nil
            socket?.abort()
            socket = nil
            feed(.socketClosed(code: nil, reason: "no close frame from the server"))
        }
    }

    private func waitAndRead() {
        let now = PusherClock.now()
        var wait = Self.maxWaitMilliseconds
        for deadline in timers.values { wait = min(wait, deadline - now) }
        if let closingDeadline { wait = min(wait, closingDeadline - now) }
        if socket?.hasBufferedInput == true { wait = 0 }
        var fds = [pollfd(fd: runtime.wakeFD, events: Int16(POLLIN), revents: 0)]
        if let socket { fds.append(pollfd(fd: socket.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        let rc = poll(&fds, nfds_t(fds.count), Int32(max(0, wait)))
        if rc < 0 { return }
        if fds[0].revents != 0 { runtime.drainWake() }
        guard let current = socket else { return }
        let readable = fds.count > 1 && fds[1].revents != 0
        guard readable || current.hasBufferedInput else { return }
        for event in current.read(socketReadable: readable) {
            // The machine may drop the socket mid-batch (a bad handshake message): the rest is stale.
            guard socket === current, !runtime.isStopped else { return }
            switch event {
            case .text(let text):
                feed(.socketText(text))
            case .controlFrame:
                feed(.socketControlFrame)
            case .closed(let code, let reason):
                socket = nil
                closingDeadline = nil
                feed(.socketClosed(code: code, reason: reason))
            case .failed(let error):
                socket = nil
                closingDeadline = nil
                feed(.socketFailed(error))
            }
        }
    }
}
