// SPDX-License-Identifier: MIT
import MockPusher
import Synchronization

/// Shares the strings and query lists that thousands of connections hold alike: the app key is the
/// registered app's own string, and a query equal to the previous upgrade's is that same array, so
/// an idle connection (its handler, registry entry and journal record) holds references, not copies.
final class PusherUpgradeInterner: Sendable {
    private let lastQuery = Mutex<[PusherQueryItem]>([])

    /// The registered app's key when `key` names one (same text), else `key`.
    func appKey(_ key: String, core: PusherCore) -> String { core.app(key: key)?.key ?? key }

    /// `query`, or the previous upgrade's equal list (same elements in the same order).
    func query(_ query: [PusherQueryItem]) -> [PusherQueryItem] {
        lastQuery.withLock { last in
            if last == query { return last }
            last = query
            return query
        }
    }
}
