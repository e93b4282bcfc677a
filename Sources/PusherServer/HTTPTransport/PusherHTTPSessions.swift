// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher
import Synchronization

/// The open HTTP fallback sessions of a `PusherService`, by app key and client session: each one
/// Pusher connection of the core (its id from a range of its own, apart from the WebSocket
/// connections' numbers), with the requests it holds (its streaming answer or its poll). The
/// decisions are `PusherHTTPSession`'s; this layer holds the requests and writes what it decides.
final class PusherHTTPSessions: Sendable {
    struct Key: Hashable, Sendable {
        var appKey: String
        var session: String
    }

    /// A held receiving request.
    private enum Held {
        case stream(ResponseStream)
        case poll(Responder)
    }

    private struct Entry {
        var session: PusherHTTPSession
        let id: PusherConnectionID
        let transport: String
    }

    private struct Table {
        var sessions: [Key: Entry] = [:]
        var keys: [PusherConnectionID: Key] = [:]
        var held: [UInt64: (key: Key, request: Held)] = [:]
        var nextReceiver: UInt64 = 0
        var nextConnection: UInt64 = 0
    }

    /// A session whose client went away: its connection, and whether the server had closed it.
    struct Expiry: Sendable {
        var key: Key
        var id: PusherConnectionID
        var serverClosed: Bool
    }

    /// HTTP sessions' connection numbers start here (WebSocket connections count from 1).
    static let firstConnection: UInt64 = 1 << 48

    let settings: PusherHTTPSessionSettings
    private let table = Mutex(Table())
    private let timer = PusherDeadlineTimer()

    init(settings: PusherHTTPSessionSettings) { self.settings = settings }

    /// Timers (heartbeats, expiry) run on `scheduler`.
    func attach(_ scheduler: any Scheduler) { timer.attach(scheduler) }

    /// Open sessions.
    var count: Int { table.withLock { $0.sessions.count } }

    /// Held receiving requests.
    var heldCount: Int { table.withLock { $0.held.count } }

    func exists(_ key: Key) -> Bool { table.withLock { $0.sessions[key] != nil } }

    /// The connections of `appKey`'s sessions the server has not closed, oldest first.
    func openConnections(appKey: String) -> [PusherConnectionID] {
        table.withLock { table in
            table.sessions.filter { $0.key.appKey == appKey && $0.value.session.closedWith == nil }.map(\.value.id).sorted()
        }
    }

    /// Drops session `id` as a lost connection: its stream ends without a close frame, its poll is
    /// answered with a reset (a client that polls again finds no session and gets a new `o`).
    func drop(_ id: PusherConnectionID) {
        let polls = table.withLock { table -> [Responder] in
            guard let key = table.keys.removeValue(forKey: id) else { return [] }
            table.sessions[key] = nil
            var polls: [Responder] = []
            for (number, held) in table.held where held.key == key {
                table.held[number] = nil
                switch held.request {
                case .stream(let stream): stream.end()
                case .poll(let responder): polls.append(responder)
                }
            }
            return polls
        }
        for responder in polls { responder.send(.close(.reset)) }
    }

    /// The session of connection `id`.
    func key(of id: PusherConnectionID) -> Key? { table.withLock { $0.keys[id] } }

    /// The connection of an open session.
    func connection(of key: Key) -> PusherConnectionID? { table.withLock { $0.sessions[key]?.id } }

    /// A receiving request (`xhr_streaming` or `xhr`) for `key`: a new session when there is
    /// none (its connection id returned, for the caller to connect it in the core).
    func receive(_ key: Key, kind: PusherHTTPPath.Kind, responder: Responder, now: PusherInstant) -> PusherConnectionID? {
        let (created, number, deferred) = table.withLock { table -> (PusherConnectionID?, UInt64, [(Responder, ResponseAction)]) in
            var created: PusherConnectionID?
            if table.sessions[key] == nil {
                table.nextConnection += 1
                let id = PusherConnectionID(Self.firstConnection + table.nextConnection)
                let transport = kind == .streaming ? "xhr_streaming" : "xhr_polling"
                table.sessions[key] = Entry(session: PusherHTTPSession(settings: settings, now: now), id: id, transport: transport)
                table.keys[id] = key
                created = id
            }
            table.nextReceiver += 1
            let number = table.nextReceiver
            table.held[number] = (key, kind == .streaming ? .stream(ResponseStream()) : .poll(responder))
            let outputs = table.sessions[key]!.session.receive(kind, id: number, now: now)
            return (created, number, perform(outputs, in: &table, streamResponder: responder))
        }
        // Registered after the lock: a request gone already runs its handler at once.
        // (A stream also hears of a client gone before its answer started: its request is cancelled.)
        if kind == .streaming { stream(number)?.onClose { [self] in gone(number) } }
        responder.onCancel { [self] in gone(number) }
        Responder.send(deferred)
        rearm(now: now)
        return created
    }

    /// The transport name of `id`'s session (`xhr_streaming` or `xhr_polling`); nil when it is none.
    func transport(of id: PusherConnectionID) -> String? {
        table.withLock { table in table.keys[id].flatMap { table.sessions[$0]?.transport } }
    }

    /// Performs the core's `action` when it is for an HTTP session; false when it is not.
    func deliver(_ action: PusherAction, now: PusherInstant) -> Bool {
        let id: PusherConnectionID
        switch action {
        case .send(let target, _), .close(let target, _, _), .webSocketPing(let target): id = target
        case .webhook: return false
        }
        let found = table.withLock { table -> (Bool, [(Responder, ResponseAction)]) in
            guard let key = table.keys[id], table.sessions[key] != nil else { return (false, []) }
            let outputs: [PusherHTTPSession.Output] = switch action {
            case .send(_, let text): table.sessions[key]!.session.enqueue(text, now: now)
            case let .close(_, code, reason): table.sessions[key]!.session.close(code: code, reason: reason, now: now)
            case .webSocketPing: table.sessions[key]!.session.heartbeat(now: now)
            case .webhook: []
            }
            return (true, perform(outputs, in: &table, streamResponder: nil))
        }
        Responder.send(found.1)
        if found.0 { rearm(now: now) }
        return found.0
    }

    /// Receiving request `number` ended (the client aborted it).
    private func gone(_ number: UInt64) {
        table.withLock { table in
            guard let held = table.held.removeValue(forKey: number) else { return }
            table.sessions[held.key]?.session.receiverGone(number, now: clockNow())
        }
        rearm(now: clockNow())
    }

    /// Heartbeats and expiry of every session; the connections that expired (forgotten here).
    func tick(now: PusherInstant) -> [Expiry] {
        let (expired, deferred) = table.withLock { table -> ([Expiry], [(Responder, ResponseAction)]) in
            var expired: [Expiry] = []
            var deferred: [(Responder, ResponseAction)] = []
            for key in Array(table.sessions.keys) {
                let outputs = table.sessions[key]!.session.tick(now: now)
                if outputs.contains(.expired), let entry = table.sessions.removeValue(forKey: key) {
                    table.keys[entry.id] = nil
                    expired.append(Expiry(key: key, id: entry.id, serverClosed: entry.session.closedWith != nil))
                    continue
                }
                deferred += perform(outputs, in: &table, streamResponder: nil)
            }
            return (expired, deferred)
        }
        Responder.send(deferred)
        return expired
    }

    /// The earliest deadline of any session.
    private var nextDeadline: PusherInstant? {
        table.withLock { table in table.sessions.values.compactMap(\.session.nextDeadline).min() }
    }

    // MARK: - Timer

    /// The clock the deadlines are on (set by the service).
    private let clock = Mutex<(@Sendable () -> PusherInstant)?>(nil)
    private let onExpired = Mutex<(@Sendable ([Expiry]) -> Void)?>(nil)

    /// Reads time from `now`; `expired` hears of the sessions whose client went away.
    func start(now: @escaping @Sendable () -> PusherInstant, expired: @escaping @Sendable ([Expiry]) -> Void) {
        clock.withLock { $0 = now }
        onExpired.withLock { $0 = expired }
    }

    private func clockNow() -> PusherInstant { clock.withLock { $0 }?() ?? PusherInstant(milliseconds: 0) }

    private func rearm(now: PusherInstant) {
        timer.rearm(for: nextDeadline, now: now, fallback: nil) { [self] in
            timer.fired()
            let now = clockNow()
            let expired = tick(now: now)
            if !expired.isEmpty { onExpired.withLock { $0 }?(expired) }
            rearm(now: now)
        }
    }

    // MARK: - Writing

    private func stream(_ number: UInt64) -> ResponseStream? {
        table.withLock { table in
            if case .stream(let stream)? = table.held[number]?.request { stream } else { nil }
        }
    }

    /// Stream writes happen here (under the lock, so that they keep the session's order; a write
    /// only queues work for the connection's loop); answers to polls and the start of a stream
    /// are returned, to be sent after the lock.
    private func perform(_ outputs: [PusherHTTPSession.Output], in table: inout Table, streamResponder: Responder?) -> [(Responder, ResponseAction)] {
        var deferred: [(Responder, ResponseAction)] = []
        for output in outputs {
            switch output {
            case let .startStream(number, bytes):
                guard case .stream(let stream)? = table.held[number]?.request, let streamResponder else { continue }
                deferred.append((streamResponder, .stream(Self.answer(bytes), stream)))
            case let .streamChunk(number, bytes):
                if case .stream(let stream)? = table.held[number]?.request { stream.write(bytes) }
            case .endStream(let number):
                if case .stream(let stream)? = table.held.removeValue(forKey: number)?.request { stream.end() }
            case let .answerPoll(number, bytes):
                if case .poll(let responder)? = table.held.removeValue(forKey: number)?.request { deferred.append((responder, .respond(Self.answer(bytes)))) }
            case .expired:
                break
            }
        }
        return deferred
    }

    /// A 200 answer of the transports with `body` (the SockJS protocol's fields; UNVERIFIED).
    static func answer(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [
            "Content-Type": "application/javascript; charset=UTF-8",
            "Cache-Control": "no-store, no-cache, no-transform, must-revalidate, max-age=0",
        ], body: body)
    }
}
