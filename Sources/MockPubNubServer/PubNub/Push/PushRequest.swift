// SPDX-License-Identifier: MIT

/// The push gateways a device registration names (spec §7).
public enum PushGateway: String, Sendable, Hashable, Codable, CaseIterable {
    case apns, gcm, fcm, mpns, apns2
}

/// A mobile push registration request (`/v1/push/…/devices/{token}[/remove]`,
/// `/v2/push/…/devices-apns2/{token}[/remove]`), as classified from its path.
public struct PushRequest: Sendable, Hashable {
    /// The device token from the path, decoded.
    public var token: String
    /// Whether the path is the APNs2 (`/v2/…/devices-apns2/…`) form.
    public var isAPNs2: Bool
    /// Whether the path ends in `/remove` (remove the device from every channel).
    public var removesDevice: Bool

    public init(token: String, isAPNs2: Bool, removesDevice: Bool) {
        self.token = token
        self.isAPNs2 = isAPNs2
        self.removesDevice = removesDevice
    }
}

extension PubNubRoute {
    /// Classifies `/v1/push/sub-key/{sub}/devices/{token}[/remove]` (`s` starts after `v1`) or
    /// `/v2/push/sub-key/{sub}/devices-apns2/{token}[/remove]` (`s` starts after `v2`).
    static func classifyPush(_ s: [String], isAPNs2: Bool, route base: PubNubRoute) -> Result<PubNubRoute, RouteError> {
        let devices = isAPNs2 ? "devices-apns2" : "devices"
        guard s.count == 5 || s.count == 6, s[0] == "push", s[1] == "sub-key", s[3] == devices,
            s.count == 5 || s[5] == "remove"
        else { return .failure(.notFound) }
        var route = base
        route.endpoint = .push
        route.subscribeKey = s[2]
        route.push = PushRequest(token: s[4], isAPNs2: isAPNs2, removesDevice: s.count == 6)
        route.channels = splitList(route.query["add"] ?? route.query["remove"])
        return .success(route)
    }
}
