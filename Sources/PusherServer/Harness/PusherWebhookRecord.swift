// SPDX-License-Identifier: MIT
import MockPusher
import Synchronization

/// The webhook events the core emitted, per app id (the last `capacity` of each), whatever the
/// sink does with them: a harness checks `cache_miss` or `subscription_count` without a receiver
/// (`GET /__admin/pusher/webhooks`).
final class PusherWebhookRecord: Sendable {
    static let capacity = 1_000
    private let events = Mutex<[String: [PusherWebhookEvent]]>([:])

    func append(appID: String, _ event: PusherWebhookEvent) {
        events.withLock { all in
            all[appID, default: []].append(event)
            if all[appID, default: []].count > Self.capacity { all[appID]?.removeFirst() }
        }
    }

    func events(appID: String) -> [PusherWebhookEvent] { events.withLock { $0[appID] ?? [] } }

    func clear(appID: String) { _ = events.withLock { $0.removeValue(forKey: appID) } }
}
