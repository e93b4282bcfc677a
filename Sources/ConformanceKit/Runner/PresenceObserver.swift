// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import Synchronization

/// A case's presence observer: a second participant the runner runs against the same server,
/// a plain subscribe long-poll loop over loopback HTTP (so it works in process and with
/// `--server` alike), reading the presence channels of the case's channels with a uuid of its
/// own and recording the presence events it receives in a log of its own. What it sends and how
/// it reads the answers is ``ObserverFeed``; this type only moves the bytes.
///
/// It subscribes to `-pnpres` channels only, so it is present nowhere and causes no join. Its
/// requests use the case's subscribe key: they are in the case's journal, and a fault plan of the
/// case applies to them as to any request of the key (the observer retries from its cursor after
/// a failed long-poll, 100 ms later).
final class PresenceObserver: Sendable {
    /// The observer's uuid, in every request it sends.
    static let uuid = "harness-observer"
    /// Seconds one long-poll may stay open before it is sent again (the loop's own timeout; at
    /// case end the open one is cancelled, not waited for).
    static let longPollSeconds = 60.0
    /// The longest ``stop()`` waits for the loop to end after cancelling its request.
    static let stopBound: Duration = .seconds(2)

    /// The presence events received, with their times (for waits and the timeline).
    let log = ObservationLog()
    private let address: String
    private let subscribeKey: String
    private let state = Mutex(State())

    private struct State {
        var stopped = false
        var started = false
        /// Cancels the request in flight.
        var inFlight: CancellationSignal?
        var loop: Task<Void, Never>?
        /// Set by the loop when it returns (its last request ended, its socket closed).
        var loopEnded = false
    }

    /// - Parameters:
    ///   - address: `host:port` of the server's plain listener.
    ///   - subscribeKey: the case's subscribe key.
    init(address: String, subscribeKey: String) {
        self.address = address
        self.subscribeKey = subscribeKey
    }

    /// Whether ``start(channels:handshakeSeconds:)`` was called.
    var isStarted: Bool { state.withLock { $0.started } }
    /// Whether the long-poll loop has returned (after ``stop()``, unless the bound ran out first).
    var loopEnded: Bool { state.withLock { $0.loopEnded } }

    /// Sends the handshake (`tt=0`) for `channels`' presence and, once it is answered, starts the
    /// long-poll loop from its cursor: events the server emits after this returns are received.
    /// Throws a one-line reason when the handshake fails (or the observer was already started).
    func start(channels: [String], handshakeSeconds: Double) async throws(ObserverError) {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard first else { throw ObserverError("the observer is already started (one per case)") }
        guard let (host, port) = AdminHTTPServer.hostAndPort(address) else { throw ObserverError("\(address) is not HOST:PORT") }
        let client: HTTPClient
        do {
            client = try HTTPClient(host: host, port: port, trust: nil, userAgent: "pubnub-harness-observer", keepAlive: false)
        } catch {
            throw ObserverError("\(error)")
        }
        let handshake = await poll(client, channels: channels, cursor: ObserverFeed.Cursor(), timeout: handshakeSeconds)
        guard let page = handshake.page else { throw ObserverError("observer handshake: \(handshake.problem)") }
        await record(page.events)
        let loop = Task { await self.run(client, channels: channels, from: page.cursor) }
        let keep = state.withLock { state in
            if state.stopped { return false }
            state.loop = loop
            return true
        }
        if !keep { loop.cancel() }
    }

    /// Stops the loop: the request in flight is cancelled (its socket closed) and the loop awaited,
    /// at most ``stopBound``. Safe to call more than once, and when never started.
    func stop() async {
        let (signal, loop) = state.withLock { state in
            state.stopped = true
            defer { state.loop = nil }
            return (state.inFlight, state.loop)
        }
        signal?.cancel()
        guard let loop else { return }
        loop.cancel()
        let once = ResumeOnce()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Task {
                await loop.value
                once.resume(continuation, with: ())
            }
            Task {
                try? await Task.sleep(for: Self.stopBound)
                once.resume(continuation, with: ())
            }
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run(_ client: HTTPClient, channels: [String], from start: ObserverFeed.Cursor) async {
        defer { state.withLock { $0.loopEnded = true } }
        var cursor = start
        while !isStopped && !Task.isCancelled {
            let answer = await poll(client, channels: channels, cursor: cursor, timeout: Self.longPollSeconds)
            if let page = answer.page {
                await record(page.events)
                cursor = page.cursor
                continue
            }
            if isStopped || Task.isCancelled { return }
            // A failed long-poll (a fault of the case's plan, a starved server): again from the cursor.
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    private func record(_ events: [PresenceEvent]) async {
        for event in events { await log.record(.presence(event)) }
    }

    /// One subscribe request; its signal is registered so ``stop()`` can cancel it.
    private func poll(_ client: HTTPClient, channels: [String], cursor: ObserverFeed.Cursor,
                      timeout: Double) async -> (page: ObserverFeed.Page?, problem: String) {
        let signal = CancellationSignal()
        let registered = state.withLock { state in
            if state.stopped { return false }
            state.inFlight = signal
            return true
        }
        guard registered else { return (nil, "stopped") }
        let target = ObserverFeed.target(subscribeKey: subscribeKey, channels: channels, uuid: Self.uuid, cursor: cursor)
        let result = await client.perform(HTTPClientRequest(method: "GET", target: target), timeout: timeout, cancel: signal)
        state.withLock { state in
            if state.inFlight === signal { state.inFlight = nil }
        }
        switch result {
        case .success(let response) where response.statusCode == 200:
            if let page = ObserverFeed.parse(response.body) { return (page, "") }
            return (nil, "not a subscribe answer: \(String(decoding: response.body.prefix(120), as: UTF8.self))")
        case .success(let response):
            return (nil, "HTTP \(response.statusCode) \(String(decoding: response.body.prefix(120), as: UTF8.self))")
        case .failure(let error):
            return (nil, "\(error)")
        }
    }
}

/// Why the presence observer could not start (one line).
struct ObserverError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
