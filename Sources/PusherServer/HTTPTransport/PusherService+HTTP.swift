// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher

/// The HTTP fallback sessions fed into the core, and journaled like WebSocket connections.
extension PusherService {
    /// Wires the sessions' clock and expiry (from `init`).
    func startHTTPSessions() {
        let clock = options.clock
        httpSessions.start(now: { clock.now }) { [weak self] expired in
            guard let self else { return }
            for expiry in expired {
                // A client that stopped receiving without a close: as a TCP end without a close frame.
                if !expiry.serverClosed {
                    journalHTTP(expiry.key.appKey, expiry.id, .closed(code: 1006, reason: "session expired", clean: false))
                }
                receiveHTTP(.closed(expiry.id, now: now))
            }
        }
    }

    /// Feeds one input of an HTTP session to the core and performs the answer; `afterCore` runs
    /// between the two (the socket id is known then).
    func receiveHTTP(_ input: PusherInput, afterCore: () -> Void = {}) {
        let actions = core.handle(input)
        afterCore()
        execute(actions)
        armTimer(fallback: nil)
    }

    /// A new session's connection: `connect` and its transport journaled before
    /// `connection_established` goes out.
    func connectHTTP(_ id: PusherConnectionID, appKey: String, query: [PusherQueryItem], tls: Bool, faultRules: [String], transport: String) {
        let now = now
        receiveHTTP(.connected(id, appKey: appKey, query: query, now: now)) {
            journalHTTP(appKey, id, .connect(query: query, tls: tls, faultRules: faultRules), at: now)
            journalHTTP(appKey, id, .transport(transport), at: now)
        }
    }

    /// The messages of one `xhr_send` into the core, each journaled (`[]`: a heartbeat, counted as activity).
    func sendHTTP(_ messages: [String], appKey: String, on id: PusherConnectionID) {
        let now = now
        if messages.isEmpty {
            journalHTTP(appKey, id, .httpHeartbeat, at: now)
            receiveHTTP(.pong(id, now: now))
            return
        }
        for message in messages {
            journalHTTP(appKey, id, .text(message), at: now)
            receiveHTTP(.text(id, message, now: now))
        }
    }

    /// `closeConnections` for the key's HTTP sessions: the core forgets each, then it gets
    /// `c[code,"reason"]`, or (1006) is dropped as a lost connection. How many.
    func closeHTTPSessions(appKey: String, code: UInt16, reason: String) -> Int {
        let sessions = httpSessions.openConnections(appKey: appKey)
        for id in sessions {
            perform(core.handle(.closed(id, now: now)))
            if code == 1006 {
                journalHTTP(appKey, id, .closed(code: 1006, reason: "", clean: false, closingAt: now))
                httpSessions.drop(id)
            } else if httpSessions.deliver(.close(id, code: code, reason: reason), now: now) {
                journalHTTPClose(id, code: code, reason: reason)
            }
        }
        return sessions.count
    }

    /// The core closed session `id`: journaled as the connection's end (its client reads the `c` frame).
    func journalHTTPClose(_ id: PusherConnectionID, code: UInt16, reason: String) {
        guard let key = httpSessions.key(of: id) else { return }
        journalHTTP(key.appKey, id, .closed(code: code, reason: reason, clean: true, closingAt: now))
    }

    func journalHTTP(_ appKey: String, _ id: PusherConnectionID, _ kind: PusherJournalEntry.Kind, at: PusherInstant? = nil) {
        journal.record(appKey, at: at ?? now, connection: id.rawValue, socketID: core.socketIDValue(of: id), kind)
    }
}

extension PusherService {
    /// Open HTTP fallback sessions (including closed ones kept until their client stops receiving).
    public var httpSessionCount: Int { httpSessions.count }

    /// Receiving requests (streams and polls) the HTTP sessions hold.
    public var httpHeldRequestCount: Int { httpSessions.heldCount }
}
