// SPDX-License-Identifier: MIT

/// The channels that received messages under one keyspace lock, in order. A publish touches
/// one channel, held inline; only a second one allocates.
struct TouchedChannels {
    private var first: String?
    private var more: [String] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ channel: String) {
        if first == nil { first = channel } else { more.append(channel) }
    }

    mutating func removeAll() {
        first = nil
        if !more.isEmpty { more.removeAll() }
    }

    /// The touched channels as a set (inserted in the order they were touched).
    var set: Set<String> {
        guard let first else { return [] }
        return more.isEmpty ? [first] : Set([first] + more)
    }
}
