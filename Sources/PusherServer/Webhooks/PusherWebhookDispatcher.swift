// SPDX-License-Identifier: MIT
import Dispatch
import Foundation
import Glibc
import HarnessHTTPClient
import MockPusher
import Synchronization

/// What became of one webhook POST (for counters, logs and tests).
public struct PusherWebhookDelivery: Sendable, Hashable {
    public enum Result: Sendable, Hashable {
        /// The receiver answered 2xx.
        case delivered
        /// Not 2xx (or no answer) within the retry window: given up.
        case gaveUp
    }

    public var appID: String
    public var events: [PusherWebhookEvent]
    public var attempts: Int
    public var result: Result
}

/// Sends the core's webhook events (the WebSocket bridge's `webhookSink`) to each app's URL in
/// order, batched as the service does (`settings.batchWindow`, `batchLimit`; nil window: one event
/// per POST), from one thread of its own: nothing here blocks an event loop or the Swift
/// concurrency pool. Non-2xx answers are retried with exponential backoff within
/// `settings.retryWindow`; the queue holds at most `settings.queueCapacity` events. Call `stop()`
/// when done: the thread keeps the dispatcher alive until then.
public final class PusherWebhookDispatcher: Sendable {
    public let settings: PusherWebhookSettings
    private let apps: [String: PusherApp]
    private let clients: [String: HTTPClient]
    private let targets: [String: PusherWebhookTarget]
    private let observer: @Sendable (PusherWebhookDelivery) -> Void
    private let wallClockMilliseconds: @Sendable () -> Int64
    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var queue: [PusherWebhookBatcher.Batch] = []
        var head = 0
        /// Events in `queue[head...]`.
        var queuedEvents = 0
        var buffer: PusherWebhookDelayBuffer
        var batcher: PusherWebhookBatcher
        var stopped = false
        var dropped = 0
        var delivered = 0
        var gaveUp = 0

        /// Queues closed batches for the dispatcher's thread.
        mutating func enqueue(_ batches: [PusherWebhookBatcher.Batch]) {
            for batch in batches {
                queue.append(batch)
                queuedEvents += batch.events.count
            }
        }
    }

    /// - Parameters:
    ///   - urls: the webhook URL per app id; every URL must be on loopback.
    ///   - observer: told about every finished delivery, on the dispatcher's thread.
    public init(
        apps: [PusherApp], urls: [String: String], settings: PusherWebhookSettings = PusherWebhookSettings(),
        wallClockMilliseconds: @escaping @Sendable () -> Int64 = PusherWebhookDispatcher.unixMilliseconds,
        observer: @escaping @Sendable (PusherWebhookDelivery) -> Void = { _ in }
    ) throws(PusherWebhookError) {
        var targets: [String: PusherWebhookTarget] = [:]
        var clients: [String: HTTPClient] = [:]
        for (appID, url) in urls {
            guard apps.contains(where: { $0.id == appID }) else { throw .unknownApp(appID) }
            let target = try PusherWebhookTarget(url: url)
            targets[appID] = target
            guard let client = try? HTTPClient(host: target.host, port: target.port, trust: nil, userAgent: "pubnub-harness-pusher-webhooks") else {
                throw .invalidURL(url)
            }
            clients[appID] = client
        }
        self.settings = settings
        self.apps = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.targets = targets
        self.clients = clients
        self.observer = observer
        self.wallClockMilliseconds = wallClockMilliseconds
        self.state = Mutex(State(
            buffer: PusherWebhookDelayBuffer(delay: settings.vacateDelay),
            batcher: PusherWebhookBatcher(window: settings.batchWindow, limit: settings.batchLimit)))
        let thread = Thread { [self] in run() }
        thread.name = "pusher-webhooks"
        thread.start()
    }

    /// Takes one event of an app (apps without a URL are ignored). Never blocks: a full queue drops
    /// the event and counts it in `droppedCount`.
    public func submit(appID: String, event: PusherWebhookEvent) {
        guard targets[appID] != nil else { return }
        let now = Self.monotonicMilliseconds()
        state.withLock { state in
            guard !state.stopped else { return }
            for item in state.buffer.receive(.init(appID: appID, event: event), at: now) {
                if state.queuedEvents + state.batcher.heldCount >= settings.queueCapacity {
                    state.dropped += 1
                } else {
                    state.enqueue(state.batcher.receive(item, at: now))
                }
            }
        }
        wake.signal()
    }

    /// The webhook actions of `actions` (what the bridge's `perform` hands on).
    public func submit(_ actions: [PusherAction]) {
        for case .webhook(let appID, let event) in actions { submit(appID: appID, event: event) }
    }

    /// Stops the thread after the POST in progress (queued events are dropped); with `wait`, blocks
    /// until it has ended (at most one request timeout), so never call it that way from the
    /// concurrency pool or an event loop.
    public func stop(wait: Bool = true) {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        wake.signal()
        if wait { finished.wait() }
    }

    public var droppedCount: Int { state.withLock { $0.dropped } }
    public var deliveredCount: Int { state.withLock { $0.delivered } }
    public var gaveUpCount: Int { state.withLock { $0.gaveUp } }
    /// Events queued or held, not yet sent.
    public var pendingCount: Int { state.withLock { $0.queuedEvents + $0.buffer.heldCount + $0.batcher.heldCount } }

    // MARK: - The dispatcher's thread

    private enum Step {
        case send(PusherWebhookBatcher.Batch)
        case wait(milliseconds: Int64?)
        case stop
    }

    private func run() {
        defer { finished.signal() }
        // Bounded by the process: one step per event or wake-up, until stop().
        while true {
            switch nextStep() {
            case .stop: return
            case .wait(let milliseconds):
                if let milliseconds { _ = wake.wait(timeout: .now() + .milliseconds(Int(max(1, milliseconds)))) } else { wake.wait() }
            case .send(let item): deliver(item)
            }
        }
    }

    private func nextStep() -> Step {
        let now = Self.monotonicMilliseconds()
        return state.withLock { state in
            if state.stopped { return .stop }
            for item in state.buffer.due(at: now) where state.queuedEvents + state.batcher.heldCount < settings.queueCapacity {
                state.enqueue(state.batcher.receive(item, at: now))
            }
            state.enqueue(state.batcher.due(at: now))
            if state.head < state.queue.count {
                let item = state.queue[state.head]
                state.head += 1
                state.queuedEvents -= item.events.count
                if state.head > 1024, state.head * 2 > state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                return .send(item)
            }
            let next = [state.buffer.nextDue, state.batcher.nextDue].compactMap { $0 }.min()
            return .wait(milliseconds: next.map { $0 - now })
        }
    }

    private func deliver(_ item: PusherWebhookBatcher.Batch) {
        guard let app = apps[item.appID], let client = clients[item.appID], let target = targets[item.appID] else { return }
        let started = Self.monotonicMilliseconds()
        let window = settings.retryWindow.wholeMilliseconds
        var backoff = max(1, settings.initialBackoff.wholeMilliseconds)
        var attempts = 0
        // Bounded by the retry window (each attempt has its own deadline, each wait is at least 1 ms).
        while true {
            attempts += 1
            let request = PusherWebhookRequest(app: app, events: item.events, timeMilliseconds: wallClockMilliseconds())
            let response = client.performBlocking(
                HTTPClientRequest(method: "POST", target: target.target, body: request.body, headers: request.headers),
                timeout: Double(settings.requestTimeout.wholeMilliseconds) / 1000)
            if case .success(let answer) = response, (200..<300).contains(answer.statusCode) {
                finish(PusherWebhookDelivery(appID: item.appID, events: item.events, attempts: attempts, result: .delivered))
                return
            }
            let elapsed = Self.monotonicMilliseconds() - started
            guard elapsed + backoff <= window, !state.withLock({ $0.stopped }) else {
                finish(PusherWebhookDelivery(appID: item.appID, events: item.events, attempts: attempts, result: .gaveUp))
                return
            }
            pause(milliseconds: backoff)
            backoff = min(backoff * 2, max(1, settings.maxBackoff.wholeMilliseconds))
        }
    }

    /// Waits `milliseconds` unless stopped; wake-ups for new events do not shorten it (the main loop
    /// looks at the queue before it waits, so no event is missed).
    private func pause(milliseconds: Int64) {
        let deadline = Self.monotonicMilliseconds() + milliseconds
        // Bounded: each round either reaches the deadline or consumes one wake-up signal.
        for _ in 0..<1_000_000 {
            let left = deadline - Self.monotonicMilliseconds()
            if left <= 0 || state.withLock({ $0.stopped }) { return }
            _ = wake.wait(timeout: .now() + .milliseconds(Int(left)))
        }
    }

    private func finish(_ delivery: PusherWebhookDelivery) {
        state.withLock { state in
            if delivery.result == .delivered { state.delivered += 1 } else { state.gaveUp += 1 }
        }
        observer(delivery)
    }

    /// Unix time in milliseconds (the body's `time_ms`).
    public static let unixMilliseconds: @Sendable () -> Int64 = {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    static func monotonicMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}

