// SPDX-License-Identifier: MIT
import HarnessJSON

/// A subscribed channel (libPusher `PTPusherChannel`): its events and, on private and presence
/// channels, client events. It keeps its client alive.
public struct PusherChannel: Sendable {
    public let name: String
    public let client: PusherClient

    public var kind: PusherChannelType { PusherChannelType(channelName: name) }
    public var status: PusherSubscriptionStatus? { client.subscriptionStatus(of: name) }
    /// Presence members (empty on other kinds and until subscribed).
    public var members: [PusherMember] { client.members(of: name) }

    /// This channel's events from now on (the channel-level `PTPusherEventReceivedNotification`).
    public func events() -> AsyncStream<PusherEventMessage> { client.channelEvents(name) }

    /// `triggerEventNamed:data:` — see ``PusherClient/trigger(event:data:on:)``.
    public func trigger(event: String, data: JSONValue) throws(PusherTriggerError) {
        try client.trigger(event: event, data: data, on: name)
    }

    public func unsubscribe() { client.unsubscribe(from: name) }
}
