// SPDX-License-Identifier: MIT

/// The channel logs of one keyspace, by channel name.
///
/// The logs live in an array and the names map to their positions; a channel is never removed,
/// so a position stays valid. The channel appended to last is remembered with its position: a
/// run of publishes to one channel compares the name (two words for a short one) instead of
/// hashing it for every append.
struct ChannelLogs: Sendable {
    private var positions: [String: Int] = [:]
    private var logs: [ChannelLog] = []
    /// The channel appended to last and its log's position in `logs`.
    private var last: (channel: String, position: Int)?

    /// The channels that have a log, in the order of the name index (`Dictionary.keys`).
    var channels: Dictionary<String, Int>.Keys { positions.keys }

    /// The log of `channel`, if it has one.
    subscript(channel: String) -> ChannelLog? {
        positions[channel].map { logs[$0] }
    }

    /// Appends `message` to the log of `channel` (made if it has none), keeping at most `limit`.
    mutating func append(_ message: consuming StoredMessage, to channel: String, limit: Int) {
        let position: Int
        if let last, last.channel == channel {
            position = last.position
        } else if let known = positions[channel] {
            position = known
        } else {
            position = logs.count
            logs.append(ChannelLog())
            positions[channel] = position
        }
        last = (channel, position)
        logs[position].append(consume message, limit: limit)
    }

    /// Removes the retained messages of `channel` matching `predicate`.
    mutating func removeAll(in channel: String, where predicate: (StoredMessage) -> Bool) {
        guard let position = positions[channel] else { return }
        logs[position].removeAll(where: predicate)
    }
}
