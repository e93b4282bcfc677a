// SPDX-License-Identifier: MIT

/// The parked subscribe long-polls of one keyspace.
///
/// Waiters that asked for the same subscription in the same format share one `ParkedSubscription`
/// (its channels, groups, filter and wildcards are stored and compared once, at park time), and
/// the index maps a channel or group to those subscriptions, not to each waiter. A waiter lives
/// in a slot of a flat array; its id is the slot and the slot's generation, so forgetting it
/// (answered, idle, cancelled) is O(1) and a stale id finds nothing.
///
/// Every waiter of a keyspace waits the same idle timeout, so park order is deadline order: the
/// table keeps each waiter's idle deadline in a queue, and one timer (the idle sweep) at the first
/// deadline serves all of them, instead of a timer per waiter.
struct WaiterTable {
    /// A waiter as handed to `park` and returned when it leaves the table.
    struct Parked {
        var responder: Responder
        var cursor: UInt64
        var format: SubscribeFormat
    }

    /// A waiter's idle deadline (the scheduler's clock); entries of waiters gone stay until passed.
    private struct IdleDeadline {
        var id: Int
        var deadline: UInt64
    }

    /// One distinct (subscription, format) and the slots of the waiters parked with it.
    struct ParkedSubscription {
        var subscription: SubscriptionSet
        var format: SubscribeFormat
        var slots: [Int32] = []
    }

    private struct Slot {
        var responder: Responder?
        var cursor: UInt64 = 0
        var generation: UInt32 = 0
        /// Index into `subscriptions`.
        var subscription: Int32 = -1
        /// Index into that subscription's `slots`.
        var position: Int32 = -1
    }

    private struct SubscriptionKey: Hashable {
        var subscription: SubscriptionSet
        var format: SubscribeFormat
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int32] = []
    private var subscriptions: [ParkedSubscription?] = []
    private var freeSubscriptions: [Int32] = []
    private var subscriptionByKey: [SubscriptionKey: Int32] = [:]
    /// Channel or group → the subscriptions that read it.
    private var index: [WaiterIndexKey: Set<Int32>] = [:]
    /// How many parked subscriptions read a wildcard (`a.*`); wildcards are looked up only when some do.
    private(set) var wildcardSubscriptions = 0
    /// The number of parked waiters.
    private(set) var count = 0
    /// Idle deadlines in park order, from `idleHead` on.
    private var idle: [IdleDeadline] = []
    private var idleHead = 0
    /// The armed idle sweep: its token (a sweep that fires with another one finds nothing) and its timer.
    private var sweep: (token: UInt64, work: (any ScheduledWork)?)?
    private var sweepTokens: UInt64 = 0

    var isEmpty: Bool { count == 0 }

    /// Parks a waiter reading `subscription` until `idleDeadline` at the latest; returns its id.
    /// Deadlines must not decrease from one call to the next (one idle timeout, a monotonic clock).
    mutating func park(_ waiter: Parked, subscription: SubscriptionSet, idleDeadline: UInt64) -> Int {
        let key = SubscriptionKey(subscription: subscription, format: waiter.format)
        let group: Int32
        if let existing = subscriptionByKey[key] {
            group = existing
        } else {
            group = addSubscription(ParkedSubscription(subscription: subscription, format: waiter.format))
            subscriptionByKey[key] = group
        }
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = Int32(slots.count)
            slots.append(Slot())
        }
        let position = Int32(subscriptions[Int(group)]!.slots.count)
        subscriptions[Int(group)]!.slots.append(slot)
        let generation = slots[Int(slot)].generation
        slots[Int(slot)] = Slot(responder: waiter.responder, cursor: waiter.cursor,
                                generation: generation, subscription: group, position: position)
        count += 1
        let id = Self.id(slot: slot, generation: generation)
        compactIdleIfStale()
        idle.append(IdleDeadline(id: id, deadline: idleDeadline))
        return id
    }

    /// Whether `id` is still parked.
    func contains(_ id: Int) -> Bool { live(id) != nil }

    // MARK: - The idle sweep

    /// A sweep to arm (its token and the first idle deadline) when waiters are parked and none is
    /// armed; the caller schedules it and hands its timer to `setSweep`.
    mutating func sweepToArm() -> (token: UInt64, deadline: UInt64)? {
        guard sweep == nil, count > 0, let deadline = firstIdleDeadline() else { return nil }
        sweepTokens &+= 1
        sweep = (sweepTokens, nil)
        return (sweepTokens, deadline)
    }

    /// Stores the timer of the sweep `token` (ignored when that sweep is no longer armed).
    mutating func setSweep(_ work: any ScheduledWork, token: UInt64) {
        guard sweep?.token == token else { return }
        sweep?.work = work
    }

    /// The sweep `token` fired at `now`: disarms it and removes the waiters whose idle deadline has
    /// passed, in park order; `nil` when `token` is not the armed sweep (cancelled, or replaced).
    mutating func expire(now: UInt64, token: UInt64) -> [Parked]? {
        guard sweep?.token == token else { return nil }
        sweep = nil
        var expired: [Parked] = []
        while idleHead < idle.count, idle[idleHead].deadline <= now {
            let id = idle[idleHead].id
            idleHead += 1
            if let parked = unpark(id) { expired.append(parked) }
        }
        if idleHead == idle.count {
            idle.removeAll(keepingCapacity: true)
            idleHead = 0
        }
        return expired
    }

    /// The armed sweep's timer, disarmed, once no waiter is parked (it would find nothing): the
    /// caller cancels it.
    mutating func sweepToCancel() -> (any ScheduledWork)? {
        guard count == 0, let armed = sweep else { return nil }
        sweep = nil
        idle.removeAll()
        idleHead = 0
        return armed.work
    }

    /// The idle deadline of the first waiter still parked (stale entries before it are dropped).
    private mutating func firstIdleDeadline() -> UInt64? {
        while idleHead < idle.count, live(idle[idleHead].id) == nil { idleHead += 1 }
        return idleHead < idle.count ? idle[idleHead].deadline : nil
    }

    /// Drops the entries of waiters gone (answered, cancelled) once they outnumber the parked
    /// ones: a busy keyspace answers and re-parks far more often than its idle timeout passes.
    private mutating func compactIdleIfStale() {
        let held = idle.count - idleHead
        guard held >= 1024, held > 2 * count else { return }
        var kept: [IdleDeadline] = []
        kept.reserveCapacity(count + 1)
        for entry in idle[idleHead...] where live(entry.id) != nil { kept.append(entry) }
        idle = kept
        idleHead = 0
    }

    // MARK: - Waking

    /// Removes a waiter; `nil` when it was not (or no longer) parked.
    mutating func unpark(_ id: Int) -> Parked? {
        guard let slot = live(id) else { return nil }
        let group = Int(slots[slot].subscription)
        let position = Int(slots[slot].position)
        let format = subscriptions[group]!.format
        let parked = release(slot, format: format)
        // Swap-remove from the subscription's list, fixing the moved slot's position.
        let moved = subscriptions[group]!.slots.removeLast()
        if position < subscriptions[group]!.slots.count {
            subscriptions[group]!.slots[position] = moved
            slots[Int(moved)].position = Int32(position)
        }
        if subscriptions[group]!.slots.isEmpty { removeSubscription(Int32(group)) }
        return parked
    }

    /// The subscriptions that read one of `channels` directly, through a group (`groupsOf` gives the
    /// groups a channel belongs to) or through a wildcard.
    func subscriptions(reading channels: Set<String>, groupsOf: (String) -> Set<String>?) -> Set<Int32> {
        var found = Set<Int32>()
        func take(_ key: WaiterIndexKey) {
            guard let list = index[key] else { return }
            if found.isEmpty { found = list } else { found.formUnion(list) }
        }
        for channel in channels {
            take(.channel(channel))
            let base = ChannelNames.base(channel)
            let suffix = ChannelNames.isPresence(channel) ? ChannelNames.presenceSuffix : ""
            for group in groupsOf(base) ?? [] { take(.group(group + suffix)) }
            if wildcardSubscriptions > 0 {
                for name in WildcardPattern.candidates(for: channel) { take(.channel(name)) }
            }
        }
        return found
    }

    /// The parked subscription `group` (one of those `subscriptions(reading:groupsOf:)` returned).
    func subscription(_ group: Int32) -> ParkedSubscription { subscriptions[Int(group)]! }

    /// Calls `body` with the cursor of each waiter of `group`, in order.
    func forEachCursor(of group: Int32, _ body: (UInt64) -> Void) {
        guard let parked = subscriptions[Int(group)] else { return }
        for slot in parked.slots { body(slots[Int(slot)].cursor) }
    }

    /// Removes the waiters of `group` whose cursor `answer` maps to a response, and hands each
    /// removed waiter with its response to `take`. `answer` is called once per waiter, in order.
    mutating func answer(
        _ group: Int32, _ answer: (UInt64) -> HTTPResponse?, _ take: (Parked, HTTPResponse) -> Void
    ) {
        guard let parked = subscriptions[Int(group)] else { return }
        var kept: [Int32] = []
        for slot in parked.slots {
            if let response = answer(slots[Int(slot)].cursor) {
                take(release(Int(slot), format: parked.format), response)
            } else {
                slots[Int(slot)].position = Int32(kept.count)
                kept.append(slot)
            }
        }
        if kept.isEmpty {
            removeSubscription(group)
        } else {
            subscriptions[Int(group)]!.slots = kept
        }
    }

    /// Empties the table, returning every waiter and the armed sweep's timer (to cancel).
    mutating func removeAll() -> (waiters: [Parked], sweep: (any ScheduledWork)?) {
        var all: [Parked] = []
        all.reserveCapacity(count)
        for group in subscriptions {
            guard let group else { continue }
            for slot in group.slots {
                all.append(Parked(responder: slots[Int(slot)].responder!, cursor: slots[Int(slot)].cursor,
                                  format: group.format))
            }
        }
        let work = sweep?.work
        self = WaiterTable()
        return (all, work)
    }

    // MARK: - Slots and subscriptions

    private static func id(slot: Int32, generation: UInt32) -> Int {
        Int(generation) << 32 | Int(slot)
    }

    /// The slot of `id` when it is parked.
    private func live(_ id: Int) -> Int? {
        let slot = id & 0xFFFF_FFFF
        guard id >= 0, slot < slots.count, slots[slot].responder != nil,
            Int(slots[slot].generation) == id >> 32
        else { return nil }
        return slot
    }

    /// Frees `slot` (its id goes stale) and returns what it held; the caller fixes its subscription's list.
    private mutating func release(_ slot: Int, format: SubscribeFormat) -> Parked {
        // Moved out of the slot, not copied: no reference counting beyond the hand-over.
        var responder: Responder?
        swap(&responder, &slots[slot].responder)
        slots[slot].generation &+= 1
        slots[slot].subscription = -1
        slots[slot].position = -1
        freeSlots.append(Int32(slot))
        count -= 1
        return Parked(responder: responder!, cursor: slots[slot].cursor, format: format)
    }

    private static func indexKeys(_ subscription: SubscriptionSet) -> [WaiterIndexKey] {
        var keys = subscription.channels.map(WaiterIndexKey.channel)
        keys.append(contentsOf: subscription.groups.map(WaiterIndexKey.group))
        return keys
    }

    private mutating func addSubscription(_ parked: ParkedSubscription) -> Int32 {
        let group: Int32
        if let reused = freeSubscriptions.popLast() {
            group = reused
            subscriptions[Int(group)] = parked
        } else {
            group = Int32(subscriptions.count)
            subscriptions.append(parked)
        }
        for key in Self.indexKeys(parked.subscription) { index[key, default: []].insert(group) }
        if !parked.subscription.wildcards.isEmpty { wildcardSubscriptions += 1 }
        return group
    }

    private mutating func removeSubscription(_ group: Int32) {
        guard let parked = subscriptions[Int(group)] else { return }
        subscriptions[Int(group)] = nil
        freeSubscriptions.append(group)
        subscriptionByKey.removeValue(forKey: SubscriptionKey(subscription: parked.subscription, format: parked.format))
        if !parked.subscription.wildcards.isEmpty { wildcardSubscriptions -= 1 }
        for key in Self.indexKeys(parked.subscription) {
            guard let at = index.index(forKey: key) else { continue }
            index.values[at].remove(group)
            if index.values[at].isEmpty { index.remove(at: at) }
        }
    }
}
