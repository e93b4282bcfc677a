// SPDX-License-Identifier: MIT
import CPosix
import HarnessJSON
import Logging
import Synchronization

/// The request handler between the transport and the PubNub service that applies fault plans.
///
/// For each request it classifies it, attributes it to a subscribe key (requests without one,
/// such as `/time/0`, go to the key last seen with the same `uuid` query parameter), asks that
/// key's planner, journals the request with the decision, and then passes it through, answers
/// it with the fault, or forwards it with a responder that transforms the service's answer.
///
/// Installing and clearing take the same lock as request handling, so a request that arrives
/// after `installPlan` returns sees the new plan.
package final class FaultLayer: RequestHandler {
    /// Plans installed under this key apply to every key that has no plan of its own.
    package static let wildcardKey = "*"
    /// The journal key of requests that could not be attributed to any subscribe key.
    package static let unattributedKey = "_unattributed"
    /// How many uuid → key attributions are remembered before the table is emptied.
    static let attributionLimit = 100_000

    struct State {
        var planners: [String: FaultPlanner] = [:]
        private(set) var journals: [String: JournalRing] = [:]
        private(set) var keyByUUID: [String: String] = [:]
        var nextSequence: UInt64 = 1
        /// The ring found last and its key: consecutive requests of one key (the usual case)
        /// skip hashing the key. Dropped with the ring.
        private var lastRing: (key: String, ring: JournalRing)?
        /// The attribution made last: `keyByUUID[uuid] == key` while it is set.
        private var lastAttribution: (uuid: String, key: String)?

        /// The journal ring of `key`, created on first use.
        mutating func ring(_ key: String, capacity: Int, owner: FaultLayer) -> JournalRing {
            if let last = lastRing, last.key == key { return last.ring }
            let ring: JournalRing
            if let existing = journals[key] {
                ring = existing
            } else {
                ring = JournalRing(capacity: capacity, owner: owner)
                journals[key] = ring
            }
            lastRing = (key, ring)
            return ring
        }

        /// Drops the journal of `key`.
        mutating func removeJournal(_ key: String) {
            if lastRing?.key == key { lastRing = nil }
            journals.removeValue(forKey: key)
        }

        /// Drops every journal.
        mutating func removeAllJournals() {
            lastRing = nil
            journals.removeAll()
        }

        /// Notes that requests with `uuid` belong to `key` (the table is emptied at `limit` entries).
        mutating func attribute(_ uuid: String, to key: String, limit: Int) {
            if let last = lastAttribution, last.uuid == uuid, last.key == key { return }
            if keyByUUID[uuid] != key {
                if keyByUUID.count >= limit { keyByUUID.removeAll() }
                keyByUUID[uuid] = key
            }
            lastAttribution = (uuid, key)
        }

        /// Forgets every attribution.
        mutating func removeAllAttributions() {
            lastAttribution = nil
            keyByUUID.removeAll()
        }
    }

    private let upstream: any RequestHandler
    /// `upstream` when it is the PubNub service, which then takes the route computed here.
    private let service: PubNubService?
    private let scheduler: any Scheduler
    private let journalCapacity: Int
    private let seedSource: @Sendable () -> UInt64
    private let executor: FaultExecutor
    /// Answers preflights (`OPTIONS`) after journaling them and asking the plan; nil = this layer
    /// treats them as any request.
    private let cors: CORSPolicy?
    /// When the service's answers go out gzip-compressed.
    private let compression: CompressionSettings
    private let state = Mutex(State())
    /// Where fault firings and plan installs/clears are logged (at info), if anywhere.
    let logger: Logger?

    /// Creates the layer in front of `upstream` (the PubNub service).
    /// - Parameters:
    ///   - scheduler: runs `close-long-poll` timers.
    ///   - journalCapacity: entries kept per subscribe key (older ones are dropped).
    ///   - seedSource: picks the seed of a plan that names none (reported by `installedPlans()`).
    ///   - encryptor: encrypts the `foreign-encrypted` message (PubNubCrypto's `CryptoModule` by
    ///     default); with `nil` that fault answers 500.
    package init(
        upstream: any RequestHandler, scheduler: any Scheduler, journalCapacity: Int = 10_000,
        seedSource: @escaping @Sendable () -> UInt64 = { UInt64.random(in: .min ... .max) },
        encryptor: ForeignMessageEncryptor? = FaultLayer.cryptoModuleEncryptor,
        cors: CORSPolicy? = nil, compression: CompressionSettings = CompressionSettings(enabled: false),
        logger: Logger? = nil
    ) {
        self.cors = cors
        self.compression = compression
        self.logger = logger
        self.upstream = upstream
        service = upstream as? PubNubService
        self.scheduler = scheduler
        self.journalCapacity = journalCapacity
        self.seedSource = seedSource
        executor = FaultExecutor(encryptor: encryptor, cors: cors)
        service?.pushObserver.withLock { $0 = { [weak self] notices in self?.journal(notices) } }
    }

    /// Journals each push notice under its subscribe key as a `PUSH` entry (endpoint `push`),
    /// stamped with the publish's time.
    func journal(_ notices: [PushNotice]) {
        let evicted = state.withLock { state -> [JournalRecord?] in
            notices.map { notice in
                let context = RequestContext(
                    connectionID: 0, peer: "service", localPort: 0, isTLS: false,
                    arrivalTime: Double(notice.timetoken) / 10_000_000, sequenceOnConnection: 0)
                let record = JournalRecord.make(
                    sequence: state.nextSequence, subscribeKey: notice.subscribeKey, fired: nil,
                    request: notice.journalRequest, context: context)
                state.nextSequence += 1
                return state.ring(notice.subscribeKey, capacity: journalCapacity, owner: self).append(record).evicted
            }
        }
        _ = consume evicted
    }

    // MARK: - Handling

    package func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        // A browser's preflight is classified as the request it announces.
        let preflight = cors != nil && request.method.utf8.count == 7 && CORSPolicy.isPreflight(request)
        let announcedMethod = preflight ? Self.announcedMethod(request) : ""
        let classified = preflight ? PubNubRoute.classify(Self.announced(by: request, method: announcedMethod)) : PubNubRoute.classify(request)
        // Read in place: the route is copied only for a rule to look at.
        var routeKey: String?
        var routeUUID: String?
        var compressible = false
        if case .success(let route) = classified {
            if route.endpoint == .admin {
                upstream.handle(request, context: context, responder: responder)
                return
            }
            routeKey = route.subscribeKey
            routeUUID = route.uuid
            compressible = AnswerCompression.compresses(route.endpoint)
        }
        let uuid = routeUUID ?? request.queryItems?["uuid"]
        // Stored as a value; rendered only when the journal is read. The record is made under
        // the lock, with the sequence, the key and the decision, by the ring, as its element.
        let (decision, ring, position, evicted) = state.withLock {
            state -> (FaultDecision, JournalRing, JournalPosition, JournalRecord?) in
            let key = Self.attribute(routeKey, uuid: uuid, in: &state)
            var decision = FaultDecision.passThrough
            if !state.planners.isEmpty, case .success(let route) = classified {
                let planKey = state.planners[key] != nil ? key : Self.wildcardKey
                // Mutated in place through the dictionary, so the counters are not copied per request.
                decision = preflight
                    ? state.planners[planKey]?.decide(route, method: announcedMethod, preflight: true) ?? .passThrough
                    : state.planners[planKey]?.decide(route, method: request.method) ?? .passThrough
            }
            let ring = state.ring(key, capacity: journalCapacity, owner: self)
            let (position, evicted) = ring.append(
                sequence: state.nextSequence, subscribeKey: key, fired: decision.firedRule, request: request,
                context: context)
            state.nextSequence += 1
            return (decision, ring, position, evicted)
        }
        // The record a full ring dropped is freed here, outside the lock.
        _ = consume evicted
        // An observer on the connection's own responder, not a closure: a batch of answers (a
        // publish waking parked long-polls) still reaches each event loop in one hop, and a
        // parked request holds one responder.
        var responder = responder.observed(by: JournalAnswerWriter(ring: ring, position: position))
        if preflight, let cors {
            answerPreflight(request, fired: decision.firedRule, cors: cors, responder: responder)
            return
        }
        if compressible && compression.enabled && AnswerCompression.offersGzip(request) {
            let threshold = compression.thresholdBytes
            responder = Self.transforming(responder) { AnswerCompression.compress($0, threshold: threshold) }
        }
        guard let fired = decision.firedRule else {
            if let service { // the common case: hand over the route instead of classifying again
                service.handle(request, classified: classified, context: context, responder: responder)
            } else {
                upstream.handle(request, context: context, responder: responder)
            }
            return
        }
        let route = try? classified.get()
        logger?.info(
            "fault \(fired.fault.kind.rawValue) (rule \(fired.ruleID)) fired on \(request.method) \(request.target)",
            metadata: ["peer": "\(context.peer)", "subscribeKey": "\(route?.subscribeKey ?? "-")"])
        switch executor.execution(for: fired.fault, request: request, route: route, context: context) {
        case .answer(let action):
            responder.send(action)
        case .transform(let transform):
            upstream.handle(request, context: context, responder: Self.transforming(responder, transform))
        case .closeLongPoll(let after, let mode):
            closeLongPoll(request, context: context, responder: responder, after: after, mode: mode)
        }
    }

    /// The method a preflight announces (`Access-Control-Request-Method`; GET without).
    private static func announcedMethod(_ preflight: HTTPRequest) -> String {
        preflight.headers["Access-Control-Request-Method"]?.trimmingHTTPWhitespace().uppercased() ?? "GET"
    }

    /// The request a preflight announces: its path with `method`.
    private static func announced(by preflight: HTTPRequest, method: String) -> HTTPRequest {
        var announced = preflight
        announced.method = method
        return announced
    }

    /// A responder that passes every answer through `transform` before `outer` sends it.
    private static func transforming(
        _ outer: Responder, _ transform: @escaping @Sendable (ResponseAction) -> ResponseAction
    ) -> Responder {
        let inner = Responder { action in outer.send(transform(action)) }
        // Weakly: `inner` keeps `outer`; the upstream holds `inner` while the request is open.
        outer.onCancel { [weak inner] in inner?.cancel() }
        return inner
    }

    /// Answers a preflight: the policy's answer, or the failing one of a fired `preflight-failure`.
    private func answerPreflight(_ request: HTTPRequest, fired: FiredRule?, cors: CORSPolicy, responder: Responder) {
        if let fired, case .preflightFailure(let fault) = fired.fault {
            logger?.info("fault preflight-failure (rule \(fired.ruleID)) fired on OPTIONS \(request.target)")
            responder.send(FaultExecutor.failedPreflight(request, fault, cors: cors))
        } else {
            responder.send(.respond(cors.preflight(request)))
        }
    }

    /// Writes a request's answer, or its client's going away (`cancelled`), into its journal record
    /// at `position` of `ring`. A ring emptied or dropped since (journal cleared, layer reset) no
    /// longer shows that record, so the answer then goes nowhere visible.
    ///
    /// Three words (the ring and the position; the layer is the ring's owner, the arrival time is
    /// the record's), so that the responder holds it inline, not in a box of its own.
    private struct JournalAnswerWriter: ResponseObserver {
        let ring: JournalRing
        let position: JournalPosition

        func responded(_ action: ResponseAction) {
            let now = cposix_wall_seconds()
            ring.owner?.state.withLock { _ in
                ring.setAnswer(at: position) { record in
                    JournalAnswer(action, elapsedMs: FaultLayer.elapsedMs(since: record.context.arrivalTime, now: now))
                }
            }
        }

        func cancelled() {
            let now = cposix_wall_seconds()
            ring.owner?.state.withLock { _ in
                ring.setAnswer(at: position, ifUnanswered: true) { record in
                    JournalAnswer(kind: "cancelled", durationMs: FaultLayer.elapsedMs(since: record.context.arrivalTime, now: now))
                }
            }
        }
    }

    private static func elapsedMs(since arrival: Double, now: Double) -> Double {
        max(0, (now - arrival) * 1_000)
    }

    /// Forwards to the service and closes the connection after `after` unless the service answered first.
    private func closeLongPoll(
        _ request: HTTPRequest, context: RequestContext, responder: Responder, after: Duration, mode: CloseMode
    ) {
        let timer = TimerSlot()
        let inner = Responder { action in
            timer.work.withLock { $0 }?.cancel()
            responder.send(action)
        }
        let work = scheduler.schedule(after: after) {
            inner.cancel()
            responder.send(.close(mode))
        }
        timer.work.withLock { $0 = work }
        responder.onCancel { [weak inner] in
            work.cancel()
            inner?.cancel()
        }
        if inner.isCompleted { return }
        upstream.handle(request, context: context, responder: inner)
    }

    /// The journal key of a request: its own key, else the key last seen with its uuid.
    private static func attribute(_ key: String?, uuid: String?, in state: inout State) -> String {
        if let key {
            if let uuid { state.attribute(uuid, to: key, limit: attributionLimit) }
            return key
        }
        if let uuid, let known = state.keyByUUID[uuid] { return known }
        return unattributedKey
    }
}

/// Holds the timer of a `close-long-poll` so the service's answer can cancel it.
private final class TimerSlot: Sendable {
    let work = Mutex<(any ScheduledWork)?>(nil)
}

/// A plan as installed: its key, the plan, the seed in use and the rule counters so far.
public struct InstalledPlan: Sendable, Hashable {
    /// The key the plan is installed under (`*` for the wildcard plan).
    public var subscribeKey: String
    /// The plan as installed.
    public var plan: FaultPlan
    /// The seed in use: the plan's, or the one picked at installation (replay with it).
    public var seed: UInt64
    /// Per rule, in plan order: requests matched and faulted so far.
    public var counters: [RuleCounter]

    /// The admin API's JSON form.
    public var json: JSONValue {
        .object([
            ("subscribeKey", .string(subscribeKey)), ("seed", .int(seed)), ("plan", plan.json),
            ("counters", .array(zip(plan.rules, counters).map { rule, counter in
                .object([("rule", .string(rule.id)), ("matched", .int(counter.matched)), ("fired", .int(counter.fired))])
            })),
        ])
    }
}

extension FaultLayer {
    // MARK: - Control (the in-process API; the admin API calls the same methods)

    /// Installs `plan` for `subscribeKey` (replacing any plan and its counters); returns the seed in use.
    @discardableResult
    package func installPlan(_ plan: FaultPlan, for subscribeKey: String) throws(FaultPlanError) -> UInt64 {
        try plan.validate()
        let planner = FaultPlanner(plan: plan, fallbackSeed: plan.seed ?? seedSource())
        state.withLock { $0.planners[subscribeKey] = planner }
        logger?.info("plan installed for subscribe key \(subscribeKey): \(plan.rules.count) rule(s), seed \(planner.seed)")
        return planner.seed
    }

    /// Decodes plan JSON (errors name the field) and installs it for `subscribeKey`; returns the seed in use.
    @discardableResult
    package func installPlan(json bytes: [UInt8], for subscribeKey: String) throws(FaultPlanError) -> UInt64 {
        try installPlan(FaultPlan.decode(json: bytes), for: subscribeKey)
    }

    /// Removes the plan of `subscribeKey`; returns whether there was one.
    @discardableResult
    package func clearPlan(for subscribeKey: String) -> Bool {
        let cleared = state.withLock { $0.planners.removeValue(forKey: subscribeKey) != nil }
        if cleared { logger?.info("plan cleared for subscribe key \(subscribeKey)") }
        return cleared
    }

    /// Removes every plan.
    package func clearAllPlans() {
        let count = state.withLock { state in
            defer { state.planners.removeAll() }
            return state.planners.count
        }
        if count > 0 { logger?.info("\(count) plan(s) cleared") }
    }

    /// The installed plans, by key.
    package func installedPlans() -> [InstalledPlan] {
        state.withLock { state in
            state.planners.sorted { $0.key < $1.key }.map {
                InstalledPlan(subscribeKey: $0.key, plan: $0.value.plan, seed: $0.value.seed, counters: $0.value.counters)
            }
        }
    }

    /// The plan installed for `subscribeKey`, if any.
    package func installedPlan(for subscribeKey: String) -> InstalledPlan? {
        state.withLock { state in
            state.planners[subscribeKey].map {
                InstalledPlan(subscribeKey: subscribeKey, plan: $0.plan, seed: $0.seed, counters: $0.counters)
            }
        }
    }

    /// The journal of `subscribeKey`: entries with `sequence > since`, oldest first.
    package func journal(for subscribeKey: String, since: UInt64 = 0) -> [JournalEntry] {
        state.withLock { $0.journals[subscribeKey]?.entries(since: since) ?? [] }
    }

    /// The keys that have journal entries.
    package func journalKeys() -> [String] {
        state.withLock { $0.journals.keys.sorted() }
    }

    /// Empties the journal of `subscribeKey`.
    package func clearJournal(for subscribeKey: String) {
        state.withLock { $0.removeJournal(subscribeKey) }
    }

    /// Empties every journal.
    package func clearAllJournals() {
        state.withLock { $0.removeAllJournals() }
    }

    /// Forgets plans, journals and uuid attributions (sequence numbers keep growing).
    package func reset() {
        state.withLock { state in
            state.planners.removeAll()
            state.removeAllJournals()
            state.removeAllAttributions()
        }
    }
}
