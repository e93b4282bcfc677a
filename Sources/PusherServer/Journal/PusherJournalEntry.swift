// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher

/// One thing a Pusher client did on a connection, as the journal keeps it.
public struct PusherJournalEntry: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The upgrade on `/app/KEY?query` completed; the faults its plan chose (rule ids).
        case connect(query: [PusherQueryItem], tls: Bool, faultRules: [String])
        /// A text message, exactly as received (subscribe frames with their `auth`, pings, …).
        case text(String)
        case binary(bytes: Int)
        /// A WebSocket ping or pong frame.
        case webSocketPing
        case webSocketPong
        /// The connection ended: the client's close code and reason (1005 without one; 1006 when TCP
        /// ended without a close frame; the server's code when it closed and the client never answered).
        case closed(code: UInt16, reason: String, clean: Bool)
    }

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
        case .text(let text):
            members.append(("type", "text"))
            members.append(("text", .string(text)))
            if let event = (try? JSONValue.parse(text))?["event"]?.stringValue { members.append(("event", .string(event))) }
        case .binary(let bytes):
            members.append(("type", "binary"))
            members.append(("bytes", .int(bytes)))
        case .webSocketPing: members.append(("type", "ws-ping"))
        case .webSocketPong: members.append(("type", "ws-pong"))
        case let .closed(code, reason, clean):
            members.append(("type", "closed"))
            members.append(("code", .int(code)))
            members.append(("reason", .string(reason)))
            members.append(("clean", .bool(clean)))
        }
        return .object(JSONObject(members))
    }
}
