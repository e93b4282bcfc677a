// SPDX-License-Identifier: MIT
import PusherServer

/// What the server saw of one app key during a case, its instants on this process's clock.
public struct PusherAppJournal: Sendable, Hashable {
    public var connections: [PusherJournalConnection] = []
    public var authorizations: [PusherJournalAuthorization] = []
    /// Auth requests the endpoint refused (403).
    public var refusedAuthorizations = 0

    public init(connections: [PusherJournalConnection] = [], authorizations: [PusherJournalAuthorization] = [], refusedAuthorizations: Int = 0) {
        self.connections = connections
        self.authorizations = authorizations
        self.refusedAuthorizations = refusedAuthorizations
    }

    /// One line per connection and auth request, for a result's wire log.
    public var lines: [String] {
        var lines: [String] = []
        for (index, connection) in connections.enumerated() {
            lines.append("connection \(index + 1)\(connection.tls ? " (tls)" : "")\(connection.transport == "ws" ? "" : " (\(connection.transport))") socket_id \(connection.socketID ?? "-")\(connection.closeCode.map { " closed \($0)" } ?? "")")
            lines += connection.texts.map { "  → \($0.prefix(200))" }
        }
        lines += authorizations.map { "auth \($0.channel) socket_id \($0.socketID)" }
        return lines
    }
}

/// One WebSocket connection of the client, as the server's journal has it.
public struct PusherJournalConnection: Sendable, Hashable {
    /// The transport's connection number.
    public var number: UInt64
    public var socketID: String?
    public var tls = false
    public var openedAt: ContinuousClock.Instant
    public var closedAt: ContinuousClock.Instant?
    /// When the server sent its own close frame, if it closed first (before ``closedAt``).
    public var closingAt: ContinuousClock.Instant?
    /// The close code the server journaled (the client's, or the server's when it closed).
    public var closeCode: Int?
    /// Text messages the client sent, in order.
    public var texts: [String] = []
    /// WebSocket pongs the client sent (answers to the server's probes; over HTTP, its heartbeats).
    public var webSocketPongs = 0
    /// `ws`, `xhr_streaming` or `xhr_polling`.
    public var transport = "ws"

    public init(number: UInt64, openedAt: ContinuousClock.Instant) {
        self.number = number
        self.openedAt = openedAt
    }
}

public struct PusherJournalAuthorization: Sendable, Hashable {
    public var socketID: String
    public var channel: String
    public init(socketID: String, channel: String) {
        self.socketID = socketID
        self.channel = channel
    }
}

/// One journal entry in the form both ways of reading it share (the service's value in process,
/// its JSON over `/__admin/pusher/record`).
struct PusherJournalRecord: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case connect(tls: Bool)
        case text(String)
        case webSocketPong
        /// `closingAtMs`: when the server sent its own close frame, if it closed first.
        case closed(code: Int, closingAtMs: Int64? = nil)
        case other
        /// The connection's HTTP fallback transport.
        case transport(String)
    }

    var connection: UInt64
    var socketID: String?
    var atMs: Int64
    var kind: Kind

    init(connection: UInt64, socketID: String?, atMs: Int64, kind: Kind) {
        self.connection = connection
        self.socketID = socketID
        self.atMs = atMs
        self.kind = kind
    }

    /// From the service's own entry.
    init(_ entry: PusherJournalEntry) {
        let kind: Kind = switch entry.kind {
        case .connect(_, let tls, _): .connect(tls: tls)
        case .text(let text, _): .text(text)
        case .webSocketPong: .webSocketPong
        case .closed(let code, _, _, let closingAt): .closed(code: Int(code), closingAtMs: closingAt?.milliseconds)
        case .binary, .webSocketPing: .other
        case .transport(let transport): .transport(transport)
        case .httpHeartbeat: .webSocketPong
        }
        self.init(connection: entry.connection, socketID: entry.socketID, atMs: entry.at.milliseconds, kind: kind)
    }

    /// From one entry of the admin JSON (`docs/pusher.md`, journal); nil when it is not one.
    init?(json: JSONValue) {
        guard let connection = json["connection"]?.intValue, let atMs = json["atMs"]?.intValue, let type = json["type"]?.stringValue else { return nil }
        let kind: Kind
        switch type {
        case "connect": kind = .connect(tls: json["tls"]?.boolValue ?? false)
        case "text": kind = .text(json["text"]?.stringValue ?? "")
        case "ws-pong", "http-heartbeat": kind = .webSocketPong
        case "transport": kind = .transport(json["transport"]?.stringValue ?? "ws")
        case "closed": kind = .closed(code: Int(json["code"]?.intValue ?? 1005), closingAtMs: json["closingAtMs"]?.intValue.map(Int64.init))
        default: kind = .other
        }
        self.init(connection: UInt64(connection), socketID: json["socketId"]?.stringValue, atMs: Int64(atMs), kind: kind)
    }
}

extension PusherAppJournal {
    /// Builds the journal from the server's records; `origin` is this process's instant of the
    /// service clock's zero (kept fixed per server, so one record maps to one instant in every read).
    init(records: [PusherJournalRecord], authorizations: [PusherJournalAuthorization], refused: Int, origin: ContinuousClock.Instant) {
        func local(_ atMs: Int64) -> ContinuousClock.Instant { origin + .milliseconds(atMs) }
        var connections: [PusherJournalConnection] = []
        var index: [UInt64: Int] = [:]
        for record in records {
            if case .connect(let tls) = record.kind {
                var connection = PusherJournalConnection(number: record.connection, openedAt: local(record.atMs))
                connection.tls = tls
                connection.socketID = record.socketID
                index[record.connection] = connections.count
                connections.append(connection)
                continue
            }
            guard let position = index[record.connection] else { continue }
            if connections[position].socketID == nil { connections[position].socketID = record.socketID }
            switch record.kind {
            case .text(let text): connections[position].texts.append(text)
            case .webSocketPong: connections[position].webSocketPongs += 1
            case .closed(let code, let closingAtMs):
                connections[position].closedAt = local(record.atMs)
                connections[position].closingAt = closingAtMs.map(local)
                connections[position].closeCode = code
            case .transport(let transport): connections[position].transport = transport
            case .connect, .other: break
            }
        }
        self.init(connections: connections, authorizations: authorizations, refusedAuthorizations: refused)
    }
}
