// SPDX-License-Identifier: MIT
import HarnessJSON

/// An operation a client performs for a case; a client adapter maps each to its own API.
///
/// Every operation answers with an ``OperationResult``. Subscribe and unsubscribe answer as soon
/// as the client has taken the change; their effects arrive as listener events.
public enum ClientOperation: Sendable, Hashable {
    case time
    case publish(channel: String, message: JSONValue, meta: JSONValue? = nil, storeInHistory: Bool? = nil, usePOST: Bool = false,
                 customMessageType: String? = nil)
    case signal(channel: String, message: JSONValue, customMessageType: String? = nil)
    /// A publish that is neither stored nor replicated (`store=0`, `norep`; spec §5.1).
    case fire(channel: String, message: JSONValue)
    case subscribe(channels: [String], groups: [String] = [], withPresence: Bool = false, timetoken: String? = nil)
    case unsubscribe(channels: [String], groups: [String] = [])
    case unsubscribeAll
    /// Stops the subscribe loop keeping its channels and cursor (no leave); `reconnect` resumes it
    /// (protocol 9, capability `eventEngine`).
    case disconnect
    /// Resumes a disconnected loop, or one that gave up, from its cursor or `timetoken`.
    case reconnect(timetoken: String? = nil)
    case hereNow(channels: [String], groups: [String] = [], includeUUIDs: Bool = true, includeState: Bool = false)
    case whereNow(uuid: String?)
    case setState(channels: [String], groups: [String] = [], state: JSONValue)
    case getState(channels: [String], groups: [String] = [], uuid: String?)
    case history(channel: String, start: String? = nil, end: String? = nil, count: Int? = nil, reverse: Bool = false, includeTimetoken: Bool = true)
    /// Fetch messages (v3); `includeCustomMessageType` asks for each entry's custom message type
    /// (capability `historyMessageTypes`), `includeMessageActions` for each entry's actions (one
    /// channel; capability `messageActions`).
    case fetchMessages(channels: [String], start: String? = nil, end: String? = nil, max: Int? = nil, includeCustomMessageType: Bool = false,
                       includeMessageActions: Bool = false)
    case messageCounts(channels: [String], timetokens: [String])
    case deleteMessages(channel: String, start: String? = nil, end: String? = nil)
    case addChannelsToGroup(group: String, channels: [String])
    case removeChannelsFromGroup(group: String, channels: [String])
    case listChannelsInGroup(group: String)
    case deleteGroup(group: String)
    /// An Access Manager grant v2 signed by the client itself: needs the secret key in the
    /// client's configuration (`ClientOverrides.secretKey`, spec §9.2).
    case grant(Grant)
    /// App Context: metadata, memberships and members (``AppContextOperation``).
    case appContext(AppContextOperation)
    /// An Access Manager v3 grant signed by the client (needs the secret key); the result's
    /// data is `{"token": …}`, which later steps name as `{token}`.
    case grantToken(TokenGrant)
    /// Revokes a v3 token (needs the secret key); `{token}` is the last granted token.
    case revokeToken(token: String)
    /// Uses a v3 token as `auth` from now on (no request); `{token}` is the last granted token.
    case setToken(token: String)
    /// Decodes a v3 token locally; data: version, timestamp, ttl, authorizedUUID, resources,
    /// patterns (kind → name → mask) and meta.
    case parseToken(token: String)
    /// File sharing (spec pubnub-modern §3); the operations, names and driver fields are in
    /// `ClientOperation+Files.swift`. `{fileID}` and `{nextPage}` in their string fields are
    /// replaced by the runner with the last `id` / `next` a result carried.
    case files(FileOperation)
    /// Mobile push registration (add, remove, list, remove device).
    case push(PushOperation)
    /// Message actions: add, get, remove (``MessageActionOperation``).
    case messageActions(MessageActionOperation)

    /// The operation's name on the driver protocol (`"type"`).
    public var name: String {
        switch self {
        case .time: "time"
        case .publish: "publish"
        case .signal: "signal"
        case .fire: "fire"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .unsubscribeAll: "unsubscribeAll"
        case .disconnect: "disconnect"
        case .reconnect: "reconnect"
        case .hereNow: "hereNow"
        case .whereNow: "whereNow"
        case .setState: "setState"
        case .getState: "getState"
        case .history: "history"
        case .fetchMessages: "fetchMessages"
        case .messageCounts: "messageCounts"
        case .deleteMessages: "deleteMessages"
        case .addChannelsToGroup: "addChannelsToGroup"
        case .removeChannelsFromGroup: "removeChannelsFromGroup"
        case .listChannelsInGroup: "listChannelsInGroup"
        case .deleteGroup: "deleteGroup"
        case .grant: "grant"
        case .appContext(let operation): operation.name
        case .grantToken: "grantToken"
        case .revokeToken: "revokeToken"
        case .setToken: "setToken"
        case .parseToken: "parseToken"
        case .files(let operation): operation.name
        case .push(let operation): operation.name
        case .messageActions(let operation): operation.name
        }
    }

    /// The operation as a driver-protocol object (without `id`), see docs/driver-protocol.md.
    public var driverFields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["type": .string(name)]
        func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
        func put(_ key: String, _ value: String?) { if let value { fields[key] = .string(value) } }
        func put(_ key: String, _ value: Int?) { if let value { fields[key] = .int(value) } }
        switch self {
        case .time, .unsubscribeAll, .disconnect:
            break
        case .reconnect(let timetoken):
            put("timetoken", timetoken)
        case .publish(let channel, let message, let meta, let store, let usePOST, let customMessageType):
            fields["channel"] = .string(channel)
            fields["message"] = message
            if let meta { fields["meta"] = meta }
            if let store { fields["storeInHistory"] = .bool(store) }
            fields["usePOST"] = .bool(usePOST)
            put("customMessageType", customMessageType)
        case .signal(let channel, let message, let customMessageType):
            fields["channel"] = .string(channel)
            fields["message"] = message
            put("customMessageType", customMessageType)
        case .fire(let channel, let message):
            fields["channel"] = .string(channel)
            fields["message"] = message
        case .subscribe(let channels, let groups, let withPresence, let timetoken):
            fields["channels"] = strings(channels)
            fields["groups"] = strings(groups)
            fields["withPresence"] = .bool(withPresence)
            put("timetoken", timetoken)
        case .unsubscribe(let channels, let groups):
            fields["channels"] = strings(channels)
            fields["groups"] = strings(groups)
        case .hereNow(let channels, let groups, let includeUUIDs, let includeState):
            fields["channels"] = strings(channels)
            fields["groups"] = strings(groups)
            fields["includeUUIDs"] = .bool(includeUUIDs)
            fields["includeState"] = .bool(includeState)
        case .whereNow(let uuid):
            put("uuid", uuid)
        case .setState(let channels, let groups, let state):
            fields["channels"] = strings(channels)
            fields["groups"] = strings(groups)
            fields["state"] = state
        case .getState(let channels, let groups, let uuid):
            fields["channels"] = strings(channels)
            fields["groups"] = strings(groups)
            put("uuid", uuid)
        case .history(let channel, let start, let end, let count, let reverse, let includeTimetoken):
            fields["channel"] = .string(channel)
            put("start", start)
            put("end", end)
            put("count", count)
            fields["reverse"] = .bool(reverse)
            fields["includeTimetoken"] = .bool(includeTimetoken)
        case .fetchMessages(let channels, let start, let end, let max, let includeCustomMessageType, let includeMessageActions):
            fields["channels"] = strings(channels)
            put("start", start)
            put("end", end)
            put("max", max)
            if includeCustomMessageType { fields["includeCustomMessageType"] = true }
            if includeMessageActions { fields["includeMessageActions"] = true }
        case .messageCounts(let channels, let timetokens):
            fields["channels"] = strings(channels)
            fields["timetokens"] = strings(timetokens)
        case .deleteMessages(let channel, let start, let end):
            fields["channel"] = .string(channel)
            put("start", start)
            put("end", end)
        case .addChannelsToGroup(let group, let channels), .removeChannelsFromGroup(let group, let channels):
            fields["group"] = .string(group)
            fields["channels"] = strings(channels)
        case .listChannelsInGroup(let group), .deleteGroup(let group):
            fields["group"] = .string(group)
        case .files(let operation):
            fields.merge(operation.driverFields) { _, new in new }
        case .grant(let grant):
            fields["channels"] = strings(grant.channels)
            fields["groups"] = strings(grant.groups)
            fields["authKeys"] = strings(grant.authKey.map { [$0] } ?? [])
            fields["read"] = .bool(grant.read)
            fields["write"] = .bool(grant.write)
            fields["manage"] = .bool(grant.manage)
            fields["ttl"] = .int(grant.ttlMinutes)
        case .appContext(let operation):
            fields.merge(operation.driverFields) { $1 }
        case .grantToken(let grant):
            fields.merge(grant.driverFields) { _, new in new }
        case .revokeToken(let token), .setToken(let token), .parseToken(let token):
            fields["token"] = .string(token)
        case .push(let operation):
            fields.merge(operation.driverFields) { _, new in new }
        case .messageActions(let operation):
            fields.merge(operation.driverFields) { _, new in new }
        }
        return fields
    }
}
