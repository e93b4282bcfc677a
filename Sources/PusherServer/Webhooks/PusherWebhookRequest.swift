// SPDX-License-Identifier: MIT
import MockPusher

/// The body and headers of one webhook POST (spec §7): `{"time_ms":…,"events":[…]}`, signed with
/// `X-Pusher-Key` and `X-Pusher-Signature` = hex HMAC-SHA256(secret, raw body).
public struct PusherWebhookRequest: Sendable, Hashable {
    public var body: [UInt8]
    public var headers: [String: String]

    /// `timeMilliseconds` is Unix time in milliseconds (pusher-http-python's `validate_webhook`
    /// refuses bodies more than 300 s away, so seconds would fail, spec §7).
    public init(app: PusherApp, events: [PusherWebhookEvent], timeMilliseconds: Int64) {
        let value: JSONValue = ["time_ms": .int(timeMilliseconds), "events": .array(events.map(\.json))]
        body = value.jsonBytes
        headers = [
            "X-Pusher-Key": app.key,
            "X-Pusher-Signature": PusherSignatures.hmacSHA256Hex(secret: app.secret, message: String(decoding: body, as: UTF8.self)),
        ]
    }
}
