// SPDX-License-Identifier: MIT
import Synchronization

/// What a subscribe request asked for: its channels and groups exactly as named.
struct SubscriptionSet: Hashable, Sendable {
    var channels: [String]
    var groups: [String]
    /// The subscriber's `filter-expr`; `nil` (no cost) for most subscribers.
    var filter: SubscriptionFilter? = nil
    /// The wildcard names among `channels` (`a.*`), parsed.
    var wildcards: [WildcardPattern] = []
}

/// What the waiter index is keyed by: a channel or a group that parked long-polls read.
enum WaiterIndexKey: Hashable {
    case channel(String)
    case group(String)
}

/// Side effects gathered under the keyspace lock and carried out after it is released.
struct Outbox {
    /// Channels that received messages (wake their waiters before unlocking).
    var touched = TouchedChannels()
    var sends: [(Responder, HTTPResponse)] = []
    var cancels: [any ScheduledWork] = []
    var presenceTimers: [(uuid: String, generation: UInt64, seconds: Int)] = []
    /// Seconds until the interval presence timer should fire, when it is to be started.
    var intervalTimer: Int?
}

/// What state operations need besides the state itself.
struct ServiceEnvironment: Sendable {
    var subscribeKey: String
    /// The key's Access Manager keyset; `nil` for an open demo key.
    var keyset: Keyset?
    /// The service's configuration, shared: an environment made per request copies one
    /// reference, not the configuration's fields.
    let sharedConfiguration: SharedConfiguration
    var timetokens: TimetokenClock
    var clock: ServiceClock

    /// The service's configuration (read in place).
    var configuration: PubNubServiceConfiguration {
        _read { yield sharedConfiguration.value }
    }
}

/// A service's configuration behind one reference (it never changes after the service starts).
final class SharedConfiguration: Sendable {
    let value: PubNubServiceConfiguration

    init(_ value: PubNubServiceConfiguration) {
        self.value = value
    }
}

/// All state of one subscribe key, guarded by its keyspace's mutex.
struct KeyspaceState {
    var logs = ChannelLogs()
    /// Group → member channels, in insertion order. Change it only through the group methods.
    private(set) var groups: [String: [String]] = [:]
    /// Channel → the groups it belongs to (reverse of `groups`, for waking group waiters).
    private(set) var groupsByChannel: [String: Set<String>] = [:]
    var occupants: [String: Set<String>] = [:]
    var members: [String: PresenceMember] = [:]
    /// uuid → channel → state JSON text.
    var states: [String: [String: String]] = [:]
    var grants: [GrantKey: GrantRecord] = [:]
    /// Access Manager v3: revoked tokens and the keyspace's access clock offset.
    var tokenLedger = TokenLedger()
    /// Channel → its message actions, oldest action first.
    var actions: [String: [MessageAction]] = [:]
    /// App Context: uuid and channel metadata, memberships.
    var objects = ObjectsStore()
    /// Mobile push device registrations.
    var push = PushRegistry()
    /// Interval presence mode: changes gathered per channel, and whether the timer runs.
    var intervalDeltas: [String: PresenceDeltas] = [:]
    var intervalTimerRunning = false
    /// Parked subscribe long-polls, indexed by the channels and groups they read.
    var waiters = WaiterTable()
    var presenceGeneration: UInt64 = 0
    /// The presence timeouts of the present uuids, and the one timer that serves them.
    var presenceDeadlines = PresenceDeadlines()
    /// Uploaded files and upload URLs (file sharing).
    var files = FileStorage()

    /// Stores `message` (rendering its envelope unless the caller did) and marks its channel for wake-up.
    mutating func append(_ message: consuming StoredMessage, env: ServiceEnvironment, outbox: inout Outbox) {
        if !message.isRendered {
            message.renderEnvelope(
                subscribeKey: env.subscribeKey, region: env.configuration.region, shard: env.configuration.shard)
        }
        let channel = message.channel
        let live = message.live
        logs.append(consume message, to: channel, limit: env.configuration.historyLimitPerChannel)
        if live { outbox.touched.append(channel) }
    }

    /// The (channel, `b`) sources a subscription reads, direct channels first, each channel once.
    func sources(of subscription: SubscriptionSet) -> [(channel: String, match: String?)] {
        var seen = Set<String>()
        var result: [(channel: String, match: String?)] = []
        for channel in subscription.channels where seen.insert(channel).inserted {
            result.append((channel, nil))
        }
        for pattern in subscription.wildcards {
            for channel in logs.channels where pattern.matches(channel) && seen.insert(channel).inserted {
                result.append((channel, pattern.name))
            }
        }
        for group in subscription.groups {
            let presence = ChannelNames.isPresence(group)
            for member in groups[ChannelNames.base(group)] ?? [] {
                let channel = presence ? member + ChannelNames.presenceSuffix : member
                if seen.insert(channel).inserted { result.append((channel, group)) }
            }
        }
        return result
    }

    /// The live messages newer than `cursor` on every source of `subscription` that `include`
    /// accepts, oldest first, at most `limit` of them, each with the group or channel it matched.
    func pendingMessages(
        for subscription: SubscriptionSet, after cursor: UInt64, limit: Int,
        including include: (StoredMessage) -> Bool = { _ in true }
    ) -> [(message: StoredMessage, match: String?)] {
        var found: [(message: StoredMessage, match: String?)] = []
        let filter = subscription.filter
        for source in sources(of: subscription) {
            guard let log = logs[source.channel] else { continue }
            var index = log.firstIndex(after: cursor)
            var taken = 0
            while index < log.messages.endIndex && taken < limit {
                let message = log.messages[index]
                if message.live && include(message) && (filter?.admits(message) ?? true) {
                    found.append((message, source.match))
                    taken += 1
                }
                index += 1
            }
        }
        found.sort { $0.message.timetoken < $1.message.timetoken }
        if found.count > limit { found.removeLast(found.count - limit) }
        return found
    }

    /// The subscribe body for messages newer than `cursor`, or `nil` when there are none.
    func pendingBody(for subscription: SubscriptionSet, after cursor: UInt64, env: ServiceEnvironment) -> String? {
        let limit = max(1, env.configuration.maxMessagesPerSubscribeResponse)
        let found = pendingMessages(for: subscription, after: cursor, limit: limit)
        guard let last = found.last else { return nil }
        return PubNubBodies.subscribe(
            cursor: last.message.timetoken, region: env.configuration.region,
            envelopes: found.map { $0.message.envelope(match: $0.match) })
    }

    mutating func addChannels(_ channels: [String], to group: String) {
        var members = groups[group] ?? []
        for channel in channels where !members.contains(channel) {
            members.append(channel)
            groupsByChannel[channel, default: []].insert(group)
        }
        groups[group] = members
    }

    mutating func removeChannels(_ channels: [String], from group: String) {
        guard var members = groups[group] else { return }
        for channel in channels where members.contains(channel) {
            members.removeAll { $0 == channel }
            unlink(channel, group)
        }
        groups[group] = members
    }

    mutating func deleteGroup(_ group: String) {
        for channel in groups.removeValue(forKey: group) ?? [] { unlink(channel, group) }
    }

    private mutating func unlink(_ channel: String, _ group: String) {
        groupsByChannel[channel]?.remove(group)
        if groupsByChannel[channel]?.isEmpty == true { groupsByChannel.removeValue(forKey: channel) }
    }

    /// Answers every waiter that can now see a message on `outbox.touched`, rendering each
    /// distinct (subscription, format, cursor) body once.
    mutating func wakeTouched(env: ServiceEnvironment, outbox: inout Outbox) {
        guard !outbox.touched.isEmpty, !waiters.isEmpty else {
            outbox.touched.removeAll()
            return
        }
        let groups = waiters.subscriptions(reading: outbox.touched.set) { groupsByChannel[$0] }
        outbox.touched.removeAll()
        guard !groups.isEmpty else { return }
        // The response is shared (its body bytes are copied on write only), so a publish to N
        // identical long-polls renders one body, not N. Waiters of one subscription usually share
        // their cursor, so the last one is checked before the dictionary.
        for group in groups {
            let parked = waiters.subscription(group)
            // Rendered before any waiter is removed: one body per distinct cursor.
            var rendered: [UInt64: HTTPResponse?] = [:]
            var lastCursor: UInt64?
            waiters.forEachCursor(of: group) { cursor in
                guard cursor != lastCursor else { return }
                lastCursor = cursor
                if rendered[cursor] == nil {
                    rendered[cursor] = .some(pendingBody(for: parked.subscription, after: cursor, env: env, format: parked.format)
                        .map { .pubNub(200, $0) })
                }
            }
            outbox.sends.reserveCapacity(outbox.sends.count + parked.slots.count)
            var last: (cursor: UInt64, response: HTTPResponse?)?
            waiters.answer(group, { cursor in
                if let last, last.cursor == cursor { return last.response }
                let response = rendered[cursor] ?? nil
                last = (cursor, response)
                return response
            }, { removed, response in
                outbox.sends.append((removed.responder, response))
            })
        }
        if let sweep = waiters.sweepToCancel() { outbox.cancels.append(sweep) }
    }
}

/// One subscribe key's state and its lock.
final class Keyspace: Sendable {
    let state = Mutex(KeyspaceState())
}

/// A subscribe key in the service's registry: its state, and its keyset when Access Manager is on.
struct KeyEntry: Sendable {
    var keyspace: Keyspace
    var keyset: Keyset?
}
