// SPDX-License-Identifier: MIT
import Synchronization
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A scheduler driven by hand: work runs only when the test advances the clock past its deadline.
final class ManualScheduler: Scheduler {
    private final class Item: ScheduledWork {
        let deadline: Duration
        /// Dropped once run or cancelled, like the event loop's timer heap does: a handle kept by
        /// the work's own captures must not keep the work alive (a reference cycle).
        let work: Mutex<(@Sendable () -> Void)?>
        let cancelled = Atomic<Bool>(false)
        init(deadline: Duration, work: @escaping @Sendable () -> Void) {
            self.deadline = deadline
            self.work = Mutex(work)
        }
        func cancel() {
            cancelled.store(true, ordering: .releasing)
            work.withLock { $0 = nil }
        }
        func take() -> (@Sendable () -> Void)? {
            work.withLock { work in
                defer { work = nil }
                return work
            }
        }
    }

    private let state = Mutex<(now: Duration, items: [Item])>((.zero, []))

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        let item = state.withLock { state in
            let item = Item(deadline: state.now + delay, work: work)
            state.items.append(item)
            return item
        }
        return item
    }

    /// Work scheduled and neither run nor cancelled.
    /// The manual clock, in nanoseconds since the scheduler was made.
    var uptimeNanoseconds: UInt64 { state.withLock { $0.now.clampedNanoseconds } }

    var pendingCount: Int {
        state.withLock { $0.items.filter { !$0.cancelled.load(ordering: .acquiring) }.count }
    }

    /// Moves the clock forward and runs the work that became due, in deadline order.
    func advance(by step: Duration) {
        let due = state.withLock { state -> [Item] in
            state.now += step
            let now = state.now
            let due = state.items.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.items.removeAll { $0.deadline <= now }
            return due
        }
        for item in due where !item.cancelled.load(ordering: .acquiring) { item.take()?() }
    }
}

/// Collects what a responder delivered.
final class ActionSink: Sendable {
    private let actions = Mutex<[ResponseAction]>([])

    var all: [ResponseAction] { actions.withLock { $0 } }

    func responder() -> Responder {
        Responder { action in self.actions.withLock { $0.append(action) } }
    }
}

/// A stand-in for the PubNub service: answers with `response`, or parks the request when `park` is set.
final class FakeUpstream: RequestHandler {
    struct Seen: Sendable {
        var request: HTTPRequest
        var responder: Responder
    }

    let response: HTTPResponse?
    private let seen = Mutex<[Seen]>([])
    let cancellations = Atomic<Int>(0)

    /// `response == nil` parks every request (a long-poll that waits).
    init(response: HTTPResponse?) {
        self.response = response
    }

    var requests: [Seen] { seen.withLock { $0 } }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        seen.withLock { $0.append(Seen(request: request, responder: responder)) }
        if let response {
            responder.send(.respond(response))
        } else {
            // Weakly: `seen` keeps the responder, and the responder its cancel handlers.
            responder.onCancel { [weak self] in self?.cancellations.add(1, ordering: .relaxed) }
        }
    }
}

enum FaultFixtures {
    /// 2023-11-14T22:13:20.25Z as Unix seconds; its timetoken is 17000000002500000.
    static let arrival = 1_700_000_000.25
    static let now: UInt64 = 17_000_000_002_500_000

    static func context(peer: String = "127.0.0.1:50000", connection: UInt64 = 7, sequence: Int = 0) -> RequestContext {
        RequestContext(
            connectionID: connection, peer: peer, localPort: 8090, isTLS: false, arrivalTime: arrival,
            sequenceOnConnection: sequence)
    }

    static func request(_ method: String, _ target: String, body: String = "") -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: ["Host": "127.0.0.1:8090"], body: Array(body.utf8))
    }

    static func route(_ method: String = "GET", _ target: String) throws -> PubNubRoute {
        try PubNubRoute.classify(HTTPRequest(method: method, target: target)).get()
    }

    /// The publish answer the fake service gives: `[1,"Sent","17000000000000000"]` (31 bytes).
    static let sent = HTTPResponse.pubNub(200, "[1,\"Sent\",\"17000000000000000\"]")

    static func plan(_ rules: [FaultRule], seed: UInt64? = 1) -> FaultPlan {
        FaultPlan(seed: seed, rules: rules)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
