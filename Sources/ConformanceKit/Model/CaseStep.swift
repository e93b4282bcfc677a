// SPDX-License-Identifier: MIT

/// One step of a case: a client operation, a harness-side action, or an expectation.
public enum CaseStep: Sendable, Hashable {
    /// Ask the client to perform an operation; its result becomes "the last result".
    case perform(ClientOperation)
    /// Publish through the server, as another publisher would (plain HTTP from the runner).
    case serverPublish(channel: String, message: JSONValue)
    /// Send a raw request to the server from the runner (e.g. another user's heartbeat, or
    /// another user's message action with a JSON `body`); `{sub}`, `{pub}`, `{uuid}` and the
    /// timetoken placeholders (`{message.1}`, …) in `path` and query values are replaced.
    case serverRequest(method: String, path: String, query: [String: String], body: JSONValue? = nil)
    /// Grant (or, with all flags false, revoke) access on the case's Access Manager keyset.
    case grant(Grant)
    /// Issue an Access Manager v3 token on the case's keyset (through the admin API, as a
    /// server would grant it); later steps name it `{token}`.
    case issueToken(TokenGrant)
    /// Replace the case's fault plan (e.g. to let a "down" server come back); `nil` clears it.
    case setPlan(JSONValue?)
    /// Wait a fixed time; used only where the protocol itself is about time.
    case wait(ms: Int)
    /// Wait until the client reports a status with this category (from an operation or a listener).
    case expectStatus(StatusCategory, withinMs: Int)
    /// Wait until these messages are the next ones delivered, in this order, with nothing between.
    case expectMessages([ExpectedMessage], withinMs: Int)
    /// Wait until at least `count` messages have been delivered in all (content not checked;
    /// for server-generated messages).
    case expectMessageCount(Int, withinMs: Int)
    /// Check that no message beyond those already expected arrives for `ms` (duplicates, leaks).
    case expectNoMoreMessages(forMs: Int)
    /// Wait until a matching presence event is delivered.
    case expectPresence(ExpectedPresence, withinMs: Int)
    /// Check the last operation result.
    case expectResult(ExpectedResult)
    /// Wait until the case's wire journal satisfies a condition.
    case expectJournal(JournalExpectation, withinMs: Int)
    /// Check that no status of this category appears, beyond those earlier expect steps accounted
    /// for, from the start of the case until `ms` after this step begins (a "must not" about time).
    case expectNoStatus(StatusCategory, forMs: Int)
    /// Wait until a matching App Context event is delivered.
    case expectAppContextEvent(ExpectedAppContextEvent, withinMs: Int)
    /// Wait until a matching message-action event is delivered.
    case expectMessageAction(ExpectedMessageAction, withinMs: Int)
    /// Start the case's presence observer: a second participant of the runner's own (uuid
    /// ``PresenceObserver/uuid``), subscribed over loopback HTTP to these channels' presence
    /// (`-pnpres`) only, so it is on no channel itself; the step ends once its handshake is answered.
    case observerSubscribe([String])
    /// Wait until the observer received a matching presence event (`{uuid}` = the client's).
    case expectObservedPresence(ExpectedPresence, withinMs: Int)
    /// Check that the observer receives no matching presence event from its start until `ms`
    /// after this step begins (a "must not", e.g. no leave when leave events are suppressed).
    case expectNoObservedPresence(ExpectedPresence, forMs: Int)

    // MARK: Sugar for the catalog

    public static func publish(_ channel: String, _ message: JSONValue, meta: JSONValue? = nil, usePOST: Bool = false) -> CaseStep {
        .perform(.publish(channel: channel, message: message, meta: meta, usePOST: usePOST))
    }
    public static func subscribe(_ channels: [String], groups: [String] = [], withPresence: Bool = false, timetoken: String? = nil) -> CaseStep {
        .perform(.subscribe(channels: channels, groups: groups, withPresence: withPresence, timetoken: timetoken))
    }
    public static var time: CaseStep { .perform(.time) }
    public static func expect(_ category: StatusCategory, within ms: Int = 1_000) -> CaseStep {
        .expectStatus(category, withinMs: ms)
    }
    public static func expectMessage(_ channel: String, _ message: JSONValue, within ms: Int = 1_000) -> CaseStep {
        .expectMessages([ExpectedMessage(channel: channel, message: message)], withinMs: ms)
    }
}

/// A message a case expects to be delivered.
public struct ExpectedMessage: Sendable, Hashable {
    public var channel: String
    public var message: JSONValue
    public var subscription: String?
    public var publisher: String?
    public var isSignal: Bool
    public var decryptionFailed: Bool
    /// A file event: matched when the event's `{"message","file"}` object contains `message`
    /// (the file id is the server's choice, so cases give the name).
    public var isFile: Bool = false
    /// The custom message type the event must carry (not checked when `nil`).
    public var customMessageType: String?

    public init(channel: String, message: JSONValue, subscription: String? = nil, publisher: String? = nil,
                isSignal: Bool = false, decryptionFailed: Bool = false, isFile: Bool = false, customMessageType: String? = nil) {
        self.isFile = isFile
        self.customMessageType = customMessageType
        self.channel = channel
        self.message = message
        self.subscription = subscription
        self.publisher = publisher
        self.isSignal = isSignal
        self.decryptionFailed = decryptionFailed
    }

    /// Whether `event` is this message (`{uuid}` as publisher means the case's own uuid).
    func matches(_ event: MessageEvent, caseUUID: String) -> Bool {
        guard event.channel == channel, event.isFile == isFile, isFile ? event.message.contains(message) : event.message == message,
              event.isSignal == isSignal,
              event.decryptionFailed == decryptionFailed else { return false }
        if let subscription, event.subscription != subscription { return false }
        if let publisher, event.publisher != (publisher == "{uuid}" ? caseUUID : publisher) { return false }
        if let customMessageType, event.customMessageType != customMessageType { return false }
        return true
    }
}

/// A presence event a case expects (`{uuid}` = the case's uuid).
public struct ExpectedPresence: Sendable, Hashable {
    public var channel: String
    public var action: String
    public var uuid: String?
    public var occupancy: Int?
    public var state: JSONValue?

    public init(channel: String, action: String, uuid: String? = nil, occupancy: Int? = nil, state: JSONValue? = nil) {
        self.channel = channel
        self.action = action
        self.uuid = uuid
        self.occupancy = occupancy
        self.state = state
    }

    func matches(_ event: PresenceEvent, caseUUID: String) -> Bool {
        guard event.channel == channel, event.action == action else { return false }
        if let uuid, event.uuid != (uuid == "{uuid}" ? caseUUID : uuid) { return false }
        if let occupancy, event.occupancy != occupancy { return false }
        if let state, !(event.state?.contains(state) ?? false) { return false }
        return true
    }
}

/// What the last operation result must look like; `nil` fields are not checked.
public struct ExpectedResult: Sendable, Hashable {
    /// `.some(nil)` requires a result without a category (a result object).
    public var category: StatusCategory??
    public var isError: Bool?
    public var statusCode: Int?
    /// The result data must contain this (see ``JSONValue/contains(_:)``).
    public var data: JSONValue?
    /// Paths (dot-separated) whose value must be a 17-digit timetoken (string or number).
    public var timetokenPaths: [String]
    /// Paths (dot-separated) that must be absent or `null` (e.g. a listing's `more` on its last page).
    public var absentPaths: [String]

    public init(category: StatusCategory?? = nil, isError: Bool? = nil, statusCode: Int? = nil,
                data: JSONValue? = nil, timetokenPaths: [String] = [], absentPaths: [String] = []) {
        self.category = category
        self.isError = isError
        self.statusCode = statusCode
        self.data = data
        self.timetokenPaths = timetokenPaths
        self.absentPaths = absentPaths
    }

    /// A successful result object containing `data`.
    public static func success(_ data: JSONValue? = nil, timetokenPaths: [String] = [], absentPaths: [String] = []) -> ExpectedResult {
        ExpectedResult(isError: false, data: data, timetokenPaths: timetokenPaths, absentPaths: absentPaths)
    }
}

/// Access rights the runner grants on the case's keyset (spec §9.2).
public struct Grant: Sendable, Hashable {
    public var channels: [String]
    public var groups: [String]
    public var authKey: String?
    public var read: Bool
    public var write: Bool
    public var manage: Bool
    /// The `d` right (delete messages, remove message actions); granted by the runner only
    /// (a client's own `grant` operation sends read, write and manage).
    public var delete: Bool
    public var ttlMinutes: Int

    public init(channels: [String] = [], groups: [String] = [], authKey: String? = nil,
                read: Bool = true, write: Bool = true, manage: Bool = false, delete: Bool = false, ttlMinutes: Int = 5) {
        self.channels = channels
        self.groups = groups
        self.authKey = authKey
        self.read = read
        self.write = write
        self.manage = manage
        self.delete = delete
        self.ttlMinutes = ttlMinutes
    }
}
