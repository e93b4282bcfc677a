// SPDX-License-Identifier: MIT

/// One connection's subscriptions by channel name. Most connections hold one or a few, so they are
/// kept in a small array (one allocation, about half a one-element dictionary) searched linearly.
package struct PusherSubscriptionList {
    package init() {}

    private var entries: [(channel: String, subscription: PusherSubscription)] = []

    /// The subscription to `channel`, if any; setting nil removes it.
    package subscript(channel: String) -> PusherSubscription? {
        get { entries.first { $0.channel == channel }?.subscription }
        set {
            let index = entries.firstIndex { $0.channel == channel }
            switch (index, newValue) {
            case let (index?, value?): entries[index].subscription = value
            case let (index?, nil): entries.remove(at: index)
            case let (nil, value?): entries.append((channel, value))
            case (nil, nil): break
            }
        }
    }

    /// Takes `other`'s storage when both lists hold the same subscriptions in the same order
    /// (connections subscribed alike then hold one array between them), else makes `other` this list.
    package mutating func share(with other: inout PusherSubscriptionList) {
        let alike = entries.count == other.entries.count
            && zip(entries, other.entries).allSatisfy { $0.channel == $1.channel && $0.subscription == $1.subscription }
        if alike { entries = other.entries } else { other = self }
    }

    /// The subscribed channels, sorted by name.
    package var channels: [String] { entries.map(\.channel).sorted() }
}
