// SPDX-License-Identifier: MIT
import MockPusher

/// The optional hold of `channel_vacated` and `member_removed` (spec §7: delayed up to 3 s and
/// suppressed if the client comes back in that window). Pure: events and the time in, ready events out.
///
/// With a delay, a held `channel_vacated` is dropped together with a `channel_occupied` of the same
/// channel arriving in the window, and a held `member_removed` with the same user's `member_added`;
/// held events that come due are released by `due(at:)`. Without a delay every event passes at once.
public struct PusherWebhookDelayBuffer: Sendable {
    public struct Item: Sendable, Hashable {
        public var appID: String
        public var event: PusherWebhookEvent
        public init(appID: String, event: PusherWebhookEvent) {
            self.appID = appID
            self.event = event
        }
    }

    public let delayMilliseconds: Int64?
    private var held: [(item: Item, due: Int64)] = []

    public init(delay: Duration?) { delayMilliseconds = delay.map { $0.wholeMilliseconds } }

    /// The events ready to send now, in order.
    public mutating func receive(_ item: Item, at now: Int64) -> [Item] {
        guard let delay = delayMilliseconds else { return [item] }
        switch item.event {
        case .channelVacated, .memberRemoved:
            held.append((item, now + delay))
            return []
        case .channelOccupied(let channel):
            if let index = held.firstIndex(where: { $0.item.appID == item.appID && $0.item.event == .channelVacated(channel: channel) }) {
                held.remove(at: index)
                return []
            }
        case .memberAdded(let channel, let userID):
            if let index = held.firstIndex(where: { $0.item.appID == item.appID && $0.item.event == .memberRemoved(channel: channel, userID: userID) }) {
                held.remove(at: index)
                return []
            }
        default:
            break
        }
        return [item]
    }

    /// The held events whose time has come, in the order they were held.
    public mutating func due(at now: Int64) -> [Item] {
        let ready = held.filter { $0.due <= now }.map(\.item)
        held.removeAll { $0.due <= now }
        return ready
    }

    /// When the next held event comes due.
    public var nextDue: Int64? { held.map(\.due).min() }
    public var heldCount: Int { held.count }
}

extension Duration {
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
