// SPDX-License-Identifier: MIT

/// A push notification the service would hand to a gateway: a publish on a channel with
/// registered devices whose message carries that gateway's payload key (`pn_apns`, `pn_gcm`,
/// `pn_fcm`, `pn_mpns`). The mock sends nothing; the fault layer journals each notice as a
/// `PUSH` entry (endpoint `push`) so a case can assert it (docs/endpoints.md).
public struct PushNotice: Sendable, Hashable {
    public var subscribeKey: String
    public var channel: String
    /// The publish's timetoken.
    public var timetoken: UInt64
    public var publisher: String?
    public var gateway: PushGateway
    public var token: String
    public var topic: String?
    public var environment: String?
    /// The gateway's payload (the value of its `pn_*` key) as JSON text.
    public var payload: String

    /// The journal's view of the notice: a `PUSH /push/{gateway}/{token}` request whose query
    /// names the gateway (`push_type`), channel, timetoken, publisher (`uuid`) and APNs2 target,
    /// and whose body is the payload.
    var journalRequest: HTTPRequest {
        var query = [("push_type", gateway.rawValue), ("channel", channel), ("timetoken", String(timetoken))]
        if let topic { query.append(("topic", topic)) }
        if let environment { query.append(("environment", environment)) }
        if let publisher { query.append(("uuid", publisher)) }
        let target = "/push/" + gateway.rawValue + "/" + PercentDecoding.encode(token) + "?"
            + query.map { $0.0 + "=" + PercentDecoding.encode($0.1) }.joined(separator: "&")
        return HTTPRequest(method: Self.journalMethod, target: target, body: Array(payload.utf8))
    }

    /// The method of a notice's journal entry.
    static let journalMethod = "PUSH"

    /// The payload keys a message may carry and the gateways each one reaches. UNVERIFIED: the
    /// service's mapping is not recorded; `pn_apns` reaches APNs and APNs2 devices, `pn_gcm` and
    /// `pn_fcm` both reach GCM and FCM devices (FCM replaced GCM under the same key).
    static let payloadKeys: [(key: String, gateways: Set<PushGateway>)] = [
        ("pn_apns", [.apns, .apns2]), ("pn_gcm", [.gcm, .fcm]), ("pn_fcm", [.gcm, .fcm]), ("pn_mpns", [.mpns]),
    ]

    /// The notices a message published on `channel` raises for `devices` (empty when the
    /// message is not an object with a `pn_*` key).
    static func notices(
        message: String, channel: String, timetoken: UInt64, publisher: String?, subscribeKey: String,
        devices: [PushDevice]
    ) -> [PushNotice] {
        guard !devices.isEmpty, message.contains("\"pn_"), let members = PubNubJSON.objectMembers(message) else {
            return []
        }
        var result: [PushNotice] = []
        for device in devices {
            // The first key that reaches the device's gateway supplies its payload.
            guard let entry = payloadKeys.first(where: { key in
                key.gateways.contains(device.gateway) && members.contains { $0.key == key.key }
            }), let payload = members.first(where: { $0.key == entry.key })?.value else { continue }
            result.append(PushNotice(
                subscribeKey: subscribeKey, channel: channel, timetoken: timetoken, publisher: publisher,
                gateway: device.gateway, token: device.token, topic: device.topic, environment: device.environment,
                payload: payload))
        }
        return result
    }
}
