// SPDX-License-Identifier: MIT

/// One version of the PubNub driver protocol (docs/driver-protocol.md, "What changed in each
/// version"): what it added, and so the capabilities of a driver written for it.
public struct DriverProtocolVersion: Sendable, Hashable {
    /// The number a driver declares as `"protocol"` in `hello`.
    public var number: Int
    /// What the version added, for people reading docs and skip reasons.
    public var summary: String
    /// The capabilities it added.
    public var added: Set<Capability>

    public init(_ number: Int, _ summary: String, added: Set<Capability> = []) {
        self.number = number
        self.summary = summary
        self.added = added
    }

    /// Every version, oldest first.
    public static let all: [DriverProtocolVersion] = [
        DriverProtocolVersion(1, "the first protocol: configure, time, publish, signal, subscribe, unsubscribe, presence, state, "
                                 + "history, fetch, counts, delete, channel groups; status, message, signal and presence events",
                              added: [.tls, .encryption, .presence, .history, .channelGroups, .accessManager, .reconnection]),
        DriverProtocolVersion(2, "hello (capabilities, profile, controlTimeoutMs); fire; grant with secretKey"),
        DriverProtocolVersion(3, "App Context operations and appContext events", added: [.objects]),
        DriverProtocolVersion(4, "reuse: one process for many cases"),
        DriverProtocolVersion(5, "Access Manager v3 tokens", added: [.accessTokens]),
        DriverProtocolVersion(6, "file sharing and file events", added: [.files]),
        DriverProtocolVersion(7, "push registration, custom message types, filter expressions, wildcard subscriptions",
                              added: [.push, .messageTypes, .filters, .wildcardSubscribe]),
        DriverProtocolVersion(8, "protocol in hello; custom message types in fetched history", added: [.historyMessageTypes]),
        DriverProtocolVersion(9, "message actions (add, get with paging, remove, messageAction events, fetch with actions); "
                                 + "event engines (eventEngine, retryPolicy and suppressLeaveEvents in configure; disconnect and reconnect)",
                              added: [.messageActions, .eventEngine]),
    ]

    /// The newest version this runner speaks.
    public static var current: Int { all[all.count - 1].number }

    /// The capabilities of a driver written for `version`: everything added up to it (a version
    /// newer than the runner's counts as the current one; one below 1 as 1).
    public static func capabilities(of version: Int) -> Set<Capability> {
        let upTo = max(version, 1)
        return all.filter { $0.number <= upTo }.reduce(into: Set<Capability>()) { $0.formUnion($1.added) }
    }

    /// The version that added `capability`.
    public static func introducing(_ capability: Capability) -> Int {
        all.first { $0.added.contains(capability) }?.number ?? 1
    }
}
