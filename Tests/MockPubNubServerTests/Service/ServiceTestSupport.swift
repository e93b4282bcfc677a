// SPDX-License-Identifier: MIT
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A scheduler driven by hand: work runs only when `advance(by:)` passes its deadline.
final class ServiceTestScheduler: Scheduler {
    private struct Entry {
        var id: Int
        var deadline: Duration
        var work: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var nextID = 0
        var entries: [Entry] = []
    }

    private final class Handle: ScheduledWork {
        let id: Int
        let owner: ServiceTestScheduler
        init(id: Int, owner: ServiceTestScheduler) {
            self.id = id
            self.owner = owner
        }
        func cancel() { owner.state.withLock { $0.entries.removeAll { $0.id == self.id } } }
    }

    private let state = Mutex(State())

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        let id = state.withLock { state in
            state.nextID += 1
            state.entries.append(Entry(id: state.nextID, deadline: state.now + delay, work: work))
            return state.nextID
        }
        return Handle(id: id, owner: self)
    }

    /// The number of pending (not run, not cancelled) items.
    var pending: Int { state.withLock { $0.entries.count } }

    /// The manual clock, in nanoseconds since the harness started.
    var uptimeNanoseconds: UInt64 { state.withLock { $0.now.clampedNanoseconds } }

    /// Moves time forward, running due work in deadline order (bounded).
    func advance(by delta: Duration) {
        let target = state.withLock { $0.now + delta }
        for _ in 0..<100_000 {
            let due = state.withLock { state -> Entry? in
                guard let index = state.entries.indices.filter({ state.entries[$0].deadline <= target })
                    .min(by: { state.entries[$0].deadline < state.entries[$1].deadline })
                else { return nil }
                let entry = state.entries.remove(at: index)
                state.now = max(state.now, entry.deadline)
                return entry
            }
            guard let due else { break }
            due.work()
        }
        state.withLock { $0.now = target }
    }
}

/// A wall clock set by hand (starts at 2025-01-01T00:00:00Z plus a fraction).
final class ServiceTestClock: Sendable {
    private let nanos = Mutex<Int64>(1_735_689_600_123_456_700)
    var clock: ServiceClock { ServiceClock { [self] in nanos.withLock { $0 } } }
    func advance(seconds: Int64) { nanos.withLock { $0 += seconds * 1_000_000_000 } }
    func set(unixSeconds: Int64) { nanos.withLock { $0 = unixSeconds * 1_000_000_000 } }
}

/// Records what a responder sent.
final class ServiceCapture: Sendable {
    private final class Box: Sendable {
        let sent = Mutex<[ResponseAction]>([])
    }

    private let box = Box()
    let responder: Responder

    init() {
        let box = self.box
        responder = Responder { action in box.sent.withLock { $0.append(action) } }
    }

    var actions: [ResponseAction] { box.sent.withLock { $0 } }

    /// The one response sent, if any.
    var response: HTTPResponse? {
        guard case .respond(let response)? = actions.first else { return nil }
        return response
    }

    var body: String? { response.map { String(decoding: $0.body, as: UTF8.self) } }
    var status: Int? { response?.status }
}

/// A service with a manual scheduler and clock, and helpers to call it.
struct ServiceHarness {
    let scheduler = ServiceTestScheduler()
    let time = ServiceTestClock()
    let service: PubNubService

    init(_ configuration: PubNubServiceConfiguration = PubNubServiceConfiguration()) {
        service = PubNubService(configuration: configuration, scheduler: scheduler, clock: time.clock)
    }

    /// Sends a request and returns the capture (answered or parked).
    @discardableResult
    func send(_ target: String, method: String = "GET", body: String = "") -> ServiceCapture {
        let capture = ServiceCapture()
        let context = RequestContext(
            connectionID: 1, peer: "127.0.0.1:5000", localPort: 8090, isTLS: false, arrivalTime: 0,
            sequenceOnConnection: 0)
        service.handle(HTTPRequest(method: method, target: target, body: Array(body.utf8)), context: context,
                       responder: capture.responder)
        return capture
    }

    /// Sends a request that must answer at once; returns (status, body).
    @discardableResult
    func call(_ target: String, method: String = "GET", body: String = "",
              sourceLocation: SourceLocation = #_sourceLocation) -> (Int, String) {
        let capture = send(target, method: method, body: body)
        #expect(capture.actions.count == 1, "expected one answer for \(target)", sourceLocation: sourceLocation)
        if let response = capture.response {
            #expect(response.headers["Content-Type"] == Self.recordedContentType(target, status: response.status),
                    "Content-Type of \(target)", sourceLocation: sourceLocation)
        }
        return (capture.status ?? -1, capture.body ?? "")
    }

    /// The Content-Type the live service answers `target` with (recorded): unquoted charset for
    /// publish/signal success, Access Manager grants and every 403; `application/json` for
    /// channel-group mutations; the quoted charset for everything else.
    static func recordedContentType(_ target: String, status: Int) -> String {
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        let query = target.contains("?") ? String(target.split(separator: "?", maxSplits: 1)[1]) : ""
        if path.hasPrefix("/v2/objects/") { return "application/json" }
        if status == 403 || path.hasPrefix("/v2/auth/") { return "text/javascript; charset=UTF-8" }
        if status == 200 && (path.hasPrefix("/publish/") || path.hasPrefix("/signal/")) { return "text/javascript; charset=UTF-8" }
        if status == 200 && path.hasPrefix("/v1/channel-registration/")
            && (path.hasSuffix("/remove") || query.hasPrefix("add=") || query.contains("&add=")
                || query.hasPrefix("remove=") || query.contains("&remove=")) {
            return "application/json"
        }
        return "text/javascript; charset=\"UTF-8\""
    }

    /// Publishes `message` (raw JSON, percent-encoded here) and returns its timetoken.
    @discardableResult
    func publish(_ channel: String, _ message: String, key: String = "demo", query: String = "uuid=pub",
                 sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let (status, body) = call("/publish/demo/\(key)/0/\(channel)/0/\(PercentDecoding.encode(message))?\(query)",
                                  sourceLocation: sourceLocation)
        #expect(status == 200, "\(body)", sourceLocation: sourceLocation)
        return Self.publishTimetoken(body)
    }

    /// The timetoken of a `[1,"Sent","<tt>"]` body.
    static func publishTimetoken(_ body: String) -> String {
        String(body.dropFirst("[1,\"Sent\",\"".count).dropLast(2))
    }

    /// The `t.t` of a subscribe body.
    static func cursor(_ body: String) -> String {
        String(body.dropFirst("{\"t\":{\"t\":\"".count).prefix(17))
    }

    /// The timetoken the next request would get from the service clock (its wall-clock part).
    var wallTimetoken: UInt64 { UInt64(time.clock.unixNanoseconds() / 100) }
}
