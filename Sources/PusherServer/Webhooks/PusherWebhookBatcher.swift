// SPDX-License-Identifier: MIT
import MockPusher

/// Groups an app's webhook events into one POST body as the service does (spec §7; Pusher's support
/// docs: "batched for a maximum of 250ms or until 20 webhook events have been added"). Pure: events
/// and the time in, closed batches out. A batch opens with its app's first event and closes
/// `window` later or at `limit` events; without a window every event is a batch of its own (the
/// one-event form of an app without batch webhooks).
public struct PusherWebhookBatcher: Sendable {
    /// One POST's events, all of one app, in order.
    public struct Batch: Sendable, Hashable {
        public var appID: String
        public var events: [PusherWebhookEvent]
        public init(appID: String, events: [PusherWebhookEvent]) {
            self.appID = appID
            self.events = events
        }
    }

    public let windowMilliseconds: Int64?
    public let limit: Int
    /// Open batches in the order they opened, with the instant each closes.
    private var open: [(batch: Batch, closes: Int64)] = []

    public init(window: Duration?, limit: Int = 20) {
        windowMilliseconds = window.map { $0.wholeMilliseconds }
        self.limit = max(1, limit)
    }

    /// Adds an event; the batch it closed, if it reached the limit (or at once without a window).
    public mutating func receive(_ item: PusherWebhookDelayBuffer.Item, at now: Int64) -> [Batch] {
        guard let window = windowMilliseconds else { return [Batch(appID: item.appID, events: [item.event])] }
        guard let index = open.firstIndex(where: { $0.batch.appID == item.appID }) else {
            open.append((Batch(appID: item.appID, events: [item.event]), now + window))
            return limit == 1 ? [open.removeLast().batch] : []
        }
        open[index].batch.events.append(item.event)
        return open[index].batch.events.count >= limit ? [open.remove(at: index).batch] : []
    }

    /// The batches whose window has ended, oldest first.
    public mutating func due(at now: Int64) -> [Batch] {
        let ready = open.filter { $0.closes <= now }.map(\.batch)
        open.removeAll { $0.closes <= now }
        return ready
    }

    /// When the next open batch closes.
    public var nextDue: Int64? { open.map(\.closes).min() }

    /// Events in open batches.
    public var heldCount: Int { open.reduce(0) { $0 + $1.batch.events.count } }
}
