// SPDX-License-Identifier: MIT
import Glibc
import HarnessServerCore
import MockPusher

/// Serves the Pusher HTTP API (`/apps/…`, and the short `/users/USER/terminate_connections`) on the
/// mock server's listeners. Answers on the loop thread: the work is one short critical section of the
/// core per request; the core's actions go to `perform` (the WebSocket bridge delivers them).
public struct PusherHTTPAPIExtension: ServerExtension {
    public let api: PusherHTTPAPI
    public let journal: PusherAPIJournal
    private let perform: @Sendable ([PusherAction]) -> Void
    private let now: @Sendable () -> PusherInstant
    private let unixTime: @Sendable () -> Int64

    /// - Parameters:
    ///   - perform: carries out the core's actions (message deliveries, closes, webhooks).
    ///   - now: the core's clock (the one the WebSocket side feeds the core with).
    ///   - unixTime: wall-clock seconds, for `auth_timestamp`.
    public init(
        core: PusherCore, journal: PusherAPIJournal = PusherAPIJournal(),
        now: @escaping @Sendable () -> PusherInstant = PusherHTTPAPIExtension.monotonicNow,
        unixTime: @escaping @Sendable () -> Int64 = { Int64(time(nil)) },
        perform: @escaping @Sendable ([PusherAction]) -> Void
    ) {
        self.api = PusherHTTPAPI(core: core)
        self.journal = journal
        self.perform = perform
        self.now = now
        self.unixTime = unixTime
    }

    public var httpPathPrefixes: [String] { ["/apps/", "/users/"] }

    public func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        let outcome = api.respond(to: PusherAPIRequest(request), unixTime: unixTime(), now: now())
        journal.append(PusherAPIJournalEntry(method: request.method, path: request.rawPath, status: outcome.status, terminateForm: outcome.terminateForm))
        if !outcome.actions.isEmpty { perform(outcome.actions) }
        _ = responder.send(.respond(outcome.httpResponse))
    }

    /// Milliseconds on `CLOCK_MONOTONIC`.
    public static let monotonicNow: @Sendable () -> PusherInstant = {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return PusherInstant(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }
}
