// SPDX-License-Identifier: MIT
import HarnessJSON
import Synchronization

/// One channel authorization the harness's auth endpoint signed.
public struct PusherAuthorizationRecord: Sendable, Hashable {
    public var socketID: String
    public var channel: String
    public init(socketID: String, channel: String) {
        self.socketID = socketID
        self.channel = channel
    }
}

/// What the auth endpoint (`POST /__admin/pusher/auth/KEY/USER`) did, per app key: the requests it
/// signed and how many it refused.
public final class PusherAuthorizationJournal: Sendable {
    /// Requests kept per key (the oldest go first).
    public static let capacity = 1_000

    public struct Page: Sendable, Hashable {
        public var authorizations: [PusherAuthorizationRecord] = []
        public var refused = 0
    }

    private let pages = Mutex<[String: Page]>([:])

    func signed(_ record: PusherAuthorizationRecord, appKey: String) {
        pages.withLock { pages in
            pages[appKey, default: Page()].authorizations.append(record)
            if pages[appKey, default: Page()].authorizations.count > Self.capacity { pages[appKey]?.authorizations.removeFirst() }
        }
    }

    func refused(appKey: String) { pages.withLock { $0[appKey, default: Page()].refused += 1 } }

    /// The key's page (empty when none).
    public func page(for appKey: String) -> Page { pages.withLock { $0[appKey] ?? Page() } }

    public func clear(_ appKey: String) { pages.withLock { $0[appKey] = nil } }

    public func clearAll() { pages.withLock { $0.removeAll() } }
}

extension PusherAuthorizationJournal.Page {
    /// `{"appKey":…,"authorizations":[{"socketId":…,"channel":…}],"refused":N}`.
    func json(appKey: String) -> JSONValue {
        .object([
            ("appKey", .string(appKey)),
            ("authorizations", .array(authorizations.map { .object([("socketId", .string($0.socketID)), ("channel", .string($0.channel))]) })),
            ("refused", .int(refused)),
        ])
    }
}
