// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher
import Synchronization

/// Pusher Channels served on the mock server's listeners: the protocol core, the WebSocket
/// extension for `/app/KEY`, the open connections and the timer for the core's deadlines.
///
/// ```swift
/// let pusher = PusherService(apps: [PusherAppArgument.demo])
/// var configuration = MockServerConfiguration.loopback()
/// configuration.extensions = pusher.extensions   // the server hands them its scheduler
/// let server = try MockServer(configuration: configuration)
/// ```
public final class PusherService: Sendable {
    /// The protocol core (HTTP-side queries and triggers go straight to it; perform what it returns).
    public let core: PusherCore
    /// The apps served.
    public let apps: [PusherApp]
    /// The Pusher fault plans by app key (decided per connection when it opens).
    public let faults = PusherFaultBook()
    /// What clients sent, by app key.
    public let journal = PusherJournal()
    /// The HTTP API requests answered (which terminate path form each used).
    public let apiJournal = PusherAPIJournal()
    let options: PusherServiceOptions
    let connections = PusherConnectionRegistry()
    let interner = PusherUpgradeInterner()
    let timer = PusherDeadlineTimer()
    /// The harness's socketless members (`/__admin/pusher/peers`) and its auth endpoint's record.
    let peers = PusherHarnessPeers()
    let authorizations = PusherAuthorizationJournal()
    let webhookRecord = PusherWebhookRecord()
    /// The HTTP fallback transports' sessions (`/pusher/app/KEY/…`).
    let httpSessions: PusherHTTPSessions
    private let sink: Mutex<@Sendable (String, PusherWebhookEvent) -> Void>

    public init(apps: [PusherApp], options: PusherServiceOptions = PusherServiceOptions()) {
        self.apps = apps
        self.options = options
        sink = Mutex(options.webhookSink)
        core = PusherCore(apps: apps, socketIDs: options.socketIDs)
        httpSessions = PusherHTTPSessions(settings: options.httpSessions)
        startHTTPSessions()
    }

    /// The extensions to put into `MockServerConfiguration.extensions`: `/app/KEY` upgrades,
    /// the admin routes under `/__admin/pusher/` and the HTTP API (`/apps/…`, `/users/…`).
    public var extensions: [any ServerExtension] {
        let clock = options.clock
        return [
            PusherWebSocketExtension(service: self), PusherAdminExtension(service: self),
            PusherHTTPAPIExtension(core: core, journal: apiJournal, now: { clock.now }, perform: { [self] actions in perform(actions) }),
            PusherHTTPTransportExtension(service: self),
        ]
    }

    /// Runs the deadline timer on `server`'s event loops. The server already hands its scheduler to
    /// `extensions` while it is created, so this is only needed for a server built without them;
    /// harmless otherwise.
    package func attach(to server: some SchedulerProviding) { timer.attach(server.scheduler) }

    /// Replaces where webhook events go (the webhook sender plugs in here, also after the start).
    public func setWebhookSink(_ webhookSink: @escaping @Sendable (_ appID: String, _ event: PusherWebhookEvent) -> Void) {
        sink.withLock { $0 = webhookSink }
    }

    /// The current instant of the service's clock.
    public var now: PusherInstant { options.clock.now }

    /// Open WebSocket connections on `/app/…` (including ones the core is about to close).
    public var openConnectionCount: Int { connections.count }

    /// Performs the core's actions in order: messages, closes and pings go to their connection's
    /// socket (dropped when it is gone), webhook events to `webhookSink`. Any thread.
    public func perform(_ actions: [PusherAction]) {
        execute(actions)
        armTimer(fallback: nil)
    }

    func execute(_ actions: [PusherAction]) {
        // A trigger is one message to every subscriber: its frame is encoded once and shared, and
        // each event loop gets its subscribers' frames in one hand-over (`WebSocketBatch`).
        var frames = SharedTextFrame()
        var batch = WebSocketBatch()
        for action in actions {
            // The common case, a message to a connection without faults: its frame as it is.
            if case .send(let id, let text) = action, let handle = connections.unfaultedHandle(id) {
                batch.send(encodedFrame: frames.bytes(for: text), on: handle)
                continue
            }
            switch action {
            case .send(let id, _), .close(let id, _, _), .webSocketPing(let id):
                guard let (handle, steps) = connections.steps(for: action, to: id) else {
                    // No socket: an HTTP fallback session's, a harness peer's message, or a closed connection's leftover.
                    batch.flush()
                    if httpSessions.deliver(action, now: now) {
                        if case let .close(id, code, reason) = action { journalHTTPClose(id, code: code, reason: reason) }
                        continue
                    }
                    if let answer = peers.deliver(action, now: now) { execute(core.handle(answer)) }
                    continue
                }
                for step in steps {
                    if case .text(let text) = step {
                        batch.send(encodedFrame: frames.bytes(for: text), on: handle)
                    } else {
                        // Whatever else goes out (closes, raw bytes, delays) stays behind the frames queued before it.
                        batch.flush()
                        put(step, on: handle)
                    }
                }
            case let .webhook(appID, event):
                batch.flush()
                webhookRecord.append(appID: appID, event)
                sink.withLock { $0 }(appID, event)
            }
        }
        batch.flush()
    }

    /// The last text's encoded frame, reused while consecutive sends carry the same text.
    private struct SharedTextFrame {
        private var text: String?
        private var frame: [UInt8] = []

        mutating func bytes(for text: String) -> [UInt8] {
            if text != self.text {
                self.text = text
                frame = WebSocketHandle.encodedTextFrame(text)
            }
            return frame
        }
    }

    /// Puts one wire step on `handle`'s socket (a delayed one on its loop's timer); a close is
    /// noted with its moment, which the connection's `closed` journal entry carries.
    func put(_ step: PusherWireStep, on handle: WebSocketHandle) {
        switch step {
        case .text(let text): handle.send(text: text)
        case .raw(let bytes): handle.sendRaw(bytes)
        case let .close(code, reason):
            connections.noteClosing(PusherConnectionID(handle.id), at: now)
            handle.close(code: WebSocketCloseCode(code), reason: reason)
        case .ping: handle.ping()
        case let .later(milliseconds, step):
            handle.schedule(after: .milliseconds(milliseconds)) { [self] in put(step, on: handle) }
        }
    }

    /// `core.trigger` stamped with the current instant, then performed.
    public func trigger(
        appID: String, event: String, data: String, channels: [String], excludeSocketID: String? = nil
    ) throws(PusherQueryError) {
        perform(try core.trigger(appID: appID, event: event, data: data, channels: channels, excludeSocketID: excludeSocketID, now: now))
    }

    // MARK: - From the transport

    /// Feeds one input that arrived on `handle` to the core and performs the answer.
    /// `afterCore` runs between the core's answer and performing it (the socket id is known then).
    func receive(_ input: PusherInput, on handle: WebSocketHandle, afterCore: () -> Void = {}) {
        let actions = core.handle(input)
        afterCore()
        execute(actions)
        armTimer(fallback: WebSocketHandleScheduler(handle: handle))
    }

    func armTimer(fallback: (any Scheduler)?) {
        let fallback = fallback ?? connections.any.map { WebSocketHandleScheduler(handle: $0) }
        timer.rearm(for: core.nextDeadline, now: now, fallback: fallback) { [self] in
            timer.fired()
            perform(core.handle(.tick(now: now)))
        }
    }
}
