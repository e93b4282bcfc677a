// SPDX-License-Identifier: MIT
import HarnessJSON

/// Mobile push registration requests (`/v1/push/…/devices/{token}`, `/v2/push/…/devices-apns2/{token}`).
enum PushEndpoints {
    static func request(_ operation: PNOperationType, device: PNPushDevice, subscribeKey: String,
                        add: [String]? = nil, remove: [String]? = nil, removesDevice: Bool = false) -> PubNubRequest
    {
        let isAPNs2 = device.type == .apns2
        var path = (isAPNs2 ? "/v2/push/sub-key/" : "/v1/push/sub-key/") + PercentEncoding.encode(subscribeKey)
            + (isAPNs2 ? "/devices-apns2/" : "/devices/") + PercentEncoding.encode(device.token)
        if removesDevice { path += "/remove" }
        var query: [(String, String)] = []
        if let add { query.append(("add", add.joined(separator: ","))) }
        if let remove { query.append(("remove", remove.joined(separator: ","))) }
        if isAPNs2 {
            query.append(("environment", device.environment.rawValue))
            if let topic = device.topic { query.append(("topic", topic)) }
        } else {
            query.append(("type", device.type.rawValue))
        }
        return PubNubRequest(operation: operation, path: path, query: query, channels: (add ?? []) + (remove ?? []))
    }

    /// A list answer: a JSON array of channel names.
    static func parseChannels(_ body: JSONValue) -> PNPushChannelsResult? {
        body.arrayValue.map { PNPushChannelsResult(channels: $0.compactMap(\.stringValue)) }
    }
}
