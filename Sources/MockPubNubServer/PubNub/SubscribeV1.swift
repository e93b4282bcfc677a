// SPDX-License-Identifier: MIT

/// What a legacy subscribe (`GET /subscribe/{sub}/{channels}/{callback}/{tt}`) adds to its route.
public struct SubscribeV1Request: Sendable, Hashable {
    /// The JSONP callback name; `nil` for the segment `0` (plain JSON).
    public var callback: String?
    /// The timetoken segment as sent (`0` for the first call).
    public var timetoken: String

    public init(callback: String?, timetoken: String) {
        self.callback = callback
        self.timetoken = timetoken
    }

    /// Whether `name` is a safe JSONP callback: a dotted JavaScript identifier path.
    static func isValidCallback(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."):
                true
            default: false
            }
        }
    }
}

/// How a subscribe response is written: the v2 envelope object, or the legacy v1 array.
///
/// v1 (c-core `pbcc_parse_subscribe_response`, Python 3.x and Ruby 3.x/4.0 subscribe parsers):
/// - one channel: `[[payload, …],"<tt>"]`
/// - several channels (a presence channel counts): `[[payload, …],"<tt>","<channel of each payload, comma-separated>"]`
/// - with channel groups: `[[payload, …],"<tt>","<group or channel matched, per payload>","<channel, per payload>"]`
/// - a JSONP callback other than `0` wraps the array: `callback([…])`.
/// The list elements are empty strings when there are no messages (Ruby 3.x treats `[[],"tt",""]`
/// as a timetoken update; the empty group form is UNVERIFIED).
enum SubscribeFormat: Hashable, Sendable {
    case v2
    case v1(callback: String?, shape: V1Shape)

    /// Which trailing lists a v1 response carries.
    enum V1Shape: Hashable, Sendable {
        case singleChannel, channels, groups
    }

    /// The v1 format for a subscription: groups → per-message match and channel lists; several
    /// channels → the channel list; one channel → the timetoken alone.
    static func v1(_ request: SubscribeV1Request, subscription: SubscriptionSet) -> SubscribeFormat {
        let shape: V1Shape =
            !subscription.groups.isEmpty ? .groups : Set(subscription.channels).count > 1 ? .channels : .singleChannel
        return .v1(callback: request.callback, shape: shape)
    }

    /// The body of a response without messages (handshake, idle timeout, reset).
    func emptyBody(cursor: UInt64, region: Int) -> String {
        switch self {
        case .v2: PubNubBodies.subscribe(cursor: cursor, region: region, envelopes: [])
        case .v1(let callback, let shape): Self.v1Body(cursor: cursor, messages: [], callback: callback, shape: shape)
        }
    }

    /// The v1 array for `messages` (payload JSON text, its channel, and the group or channel matched).
    static func v1Body(
        cursor: UInt64, messages: [(payload: String, channel: String, match: String)], callback: String?, shape: V1Shape
    ) -> String {
        var body = "[[" + messages.map(\.payload).joined(separator: ",") + "],\"" + String(cursor) + "\""
        switch shape {
        case .singleChannel:
            break
        case .channels:
            body += "," + PubNubJSON.quote(messages.map(\.channel).joined(separator: ","))
        case .groups:
            body += "," + PubNubJSON.quote(messages.map(\.match).joined(separator: ","))
            body += "," + PubNubJSON.quote(messages.map(\.channel).joined(separator: ","))
        }
        body += "]"
        guard let callback else { return body }
        return callback + "(" + body + ")"
    }
}

extension KeyspaceState {
    /// The subscribe body in `format` for messages newer than `cursor`, or `nil` when there are none.
    func pendingBody(
        for subscription: SubscriptionSet, after cursor: UInt64, env: ServiceEnvironment, format: SubscribeFormat
    ) -> String? {
        guard case .v1(let callback, let shape) = format else {
            return pendingBody(for: subscription, after: cursor, env: env)
        }
        // Signals are left out: v1 clients predate them and could not tell them from messages
        // (UNVERIFIED what the live service sent a v1 subscriber).
        let limit = max(1, env.configuration.maxMessagesPerSubscribeResponse)
        let found = pendingMessages(for: subscription, after: cursor, limit: limit) { $0.kind != .signal }
        guard let last = found.last else { return nil }
        return SubscribeFormat.v1Body(
            cursor: last.message.timetoken,
            messages: found.map { ($0.message.payload, $0.message.channel, $0.match ?? $0.message.channel) },
            callback: callback, shape: shape)
    }
}

extension PubNubService {
    /// The subscribe cursor: the v1 path timetoken or the v2 `tt` parameter (`nil` = 0).
    static func subscribeCursor(_ route: PubNubRoute) -> Result<UInt64?, PubNubServiceError> {
        if let legacy = route.subscribeV1 { return timetoken(legacy.timetoken, parameter: "timetoken") }
        return timetoken(route, "tt")
    }

    /// The response format a subscribe route asks for.
    static func subscribeFormat(_ route: PubNubRoute, subscription: SubscriptionSet) -> SubscribeFormat {
        route.subscribeV1.map { SubscribeFormat.v1($0, subscription: subscription) } ?? .v2
    }
}
