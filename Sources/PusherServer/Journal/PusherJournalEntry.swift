// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher

/// One thing a Pusher client did on a connection, as the journal keeps it.
public struct PusherJournalEntry: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The upgrade on `/app/KEY?query` completed; the faults its plan chose (rule ids).
        case connect(query: [PusherQueryItem], tls: Bool, faultRules: [String])
        /// A text message, exactly as received (subscribe frames with their `auth`, pings, …); only its
        /// first `maxTextBytes` when `truncated`.
        case text(String, truncated: Bool = false)
        case binary(bytes: Int)
        /// A WebSocket ping or pong frame.
        case webSocketPing
        case webSocketPong
        /// The connection ended: the client's close code and reason (1005 without one; 1006 when TCP
        /// ended without a close frame; the server's code when it closed and the client never answered).
        /// `closingAt`: when the server sent its own close frame, if it closed first (the moment a
        /// client's reconnect backoff starts from; the end comes a round trip or a timeout later).
        case closed(code: UInt16, reason: String, clean: Bool, closingAt: PusherInstant? = nil)
        /// The connection is an HTTP fallback session (`xhr_streaming` or `xhr_polling`), journaled
        /// right after its `connect`; a connection without one is a WebSocket (`ws`).
        case transport(String)
        /// An empty `xhr_send` (`[]`): an HTTP client's heartbeat or answer to one.
        case httpHeartbeat
    }

    /// The longest text kept whole (Pusher's own message limit is 10 KB).
    public static let maxTextBytes = 16 * 1024

    /// Increasing per app key, from 1.
    public var sequence: UInt64
    /// Milliseconds on the service's monotonic clock.
    public var at: PusherInstant
    /// The transport's connection number.
    public var connection: UInt64
    /// The socket id the core gave the connection (nil before `connection_established` or when refused).
    public var socketID: String?
    public var kind: Kind

    /// `{"sequence":…,"atMs":…,"connection":…,"socketId":…,"type":…, …}` for the admin API.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("sequence", .int(sequence)), ("atMs", .int(at.milliseconds)), ("connection", .int(connection)),
            ("socketId", socketID.map(JSONValue.string) ?? .null),
        ]
        switch kind {
        case let .connect(query, tls, rules):
            members.append(("type", "connect"))
            members.append(("query", .object(JSONObject(query.map { ($0.name, JSONValue.string($0.value)) }))))
            members.append(("tls", .bool(tls)))
            members.append(("faultRules", .array(rules.map(JSONValue.string))))
        case let .text(text, truncated):
            members.append(("type", "text"))
            members.append(("text", .string(text)))
            if truncated {
                members.append(("truncated", .bool(true)))
            } else if let event = (try? JSONValue.parse(text))?["event"]?.stringValue {
                members.append(("event", .string(event)))
            }
        case .binary(let bytes):
            members.append(("type", "binary"))
            members.append(("bytes", .int(bytes)))
        case .webSocketPing: members.append(("type", "ws-ping"))
        case .webSocketPong: members.append(("type", "ws-pong"))
        case let .closed(code, reason, clean, closingAt):
            members.append(("type", "closed"))
            members.append(("code", .int(code)))
            members.append(("reason", .string(reason)))
            members.append(("clean", .bool(clean)))
            if let closingAt { members.append(("closingAtMs", .int(closingAt.milliseconds))) }
        case .transport(let transport):
            members.append(("type", "transport"))
            members.append(("transport", .string(transport)))
        case .httpHeartbeat: members.append(("type", "http-heartbeat"))
        }
        return .object(JSONObject(members))
    }
}

extension PusherJournalEntry.Kind {
    /// The kind with a text longer than `maxTextBytes` cut (at a character boundary) and marked.
    var bounded: Self {
        guard case .text(let text, false) = self, text.utf8.count > PusherJournalEntry.maxTextBytes else { return self }
        var kept = Substring(text).utf8.prefix(PusherJournalEntry.maxTextBytes)
        while String(kept) == nil { kept = kept.dropLast() }
        return .text(String(kept) ?? "", truncated: true)
    }
}
