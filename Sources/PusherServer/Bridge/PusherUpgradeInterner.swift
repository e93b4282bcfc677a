// SPDX-License-Identifier: MIT
import MockPusher
import Synchronization

/// Shares the strings, query lists and handlers that thousands of connections hold alike: the app
/// key is the registered app's own string, a query equal to the previous upgrade's is that same
/// array, and an upgrade like the previous one (same key and query, no faults) gets its handler, so
/// an idle connection (its handler, registry entry and journal record) holds references, not copies.
package final class PusherUpgradeInterner: Sendable {
    private let lastQuery = Mutex<[PusherQueryItem]>([])
    /// Weak: the handler refers to the service, which holds this interner; open connections keep it alive.
    private let lastHandler = Mutex(WeakHandler())

    package init() {}

    /// The registered app's key when `key` names one (same text), else `key`.
    func appKey(_ key: String, core: PusherCore) -> String { core.app(key: key)?.key ?? key }

    /// `query`, or the previous upgrade's equal list (same elements in the same order).
    package func query(_ query: [PusherQueryItem]) -> [PusherQueryItem] {
        lastQuery.withLock { last in
            if last == query { return last }
            last = query
            return query
        }
    }

    /// The previous upgrade's handler when this one is alike (same app key and query, neither with
    /// faults), else `make()`'s, kept for the next upgrade.
    package func handler(appKey: String, query: [PusherQueryItem], faults: PusherConnectionFaults, make: () -> PusherConnectionHandler)
        -> PusherConnectionHandler
    {
        lastHandler.withLock { last in
            if faults.isEmpty, let shared = last.handler, shared.faults.isEmpty, shared.appKey == appKey, shared.query == query {
                return shared
            }
            let handler = make()
            last.handler = handler
            return handler
        }
    }

    private struct WeakHandler {
        weak var handler: PusherConnectionHandler?
    }
}
