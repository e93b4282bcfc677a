// SPDX-License-Identifier: MIT

/// One registered device: a token on a gateway, and for APNs2 its topic and environment.
/// Registrations of different tokens, gateways, topics or environments never see each other
/// (recorded cross-device isolation).
struct PushDevice: Sendable, Hashable {
    var gateway: PushGateway
    var token: String
    /// APNs2 only: the app's bundle id.
    var topic: String?
    /// APNs2 only: `development` or `production`.
    var environment: String?
}

/// The device registrations of one subscribe key: device → channels, channel → devices.
struct PushRegistry: Sendable {
    private(set) var channelsByDevice: [PushDevice: Set<String>] = [:]
    private(set) var devicesByChannel: [String: Set<PushDevice>] = [:]

    mutating func add(_ channels: [String], for device: PushDevice) {
        for channel in channels {
            channelsByDevice[device, default: []].insert(channel)
            devicesByChannel[channel, default: []].insert(device)
        }
    }

    mutating func remove(_ channels: [String], for device: PushDevice) {
        for channel in channels { unlink(channel, device) }
    }

    mutating func removeDevice(_ device: PushDevice) {
        for channel in channelsByDevice[device] ?? [] { unlink(channel, device) }
    }

    /// The channels `device` is registered on, sorted (as the v1 listing is recorded).
    func channels(of device: PushDevice) -> [String] {
        (channelsByDevice[device] ?? []).sorted()
    }

    /// The devices registered on `channel`, in a stable order (gateway, token, topic, environment).
    func devices(on channel: String) -> [PushDevice] {
        guard let devices = devicesByChannel[channel], !devices.isEmpty else { return [] }
        return devices.sorted { a, b in
            (a.gateway.rawValue, a.token, a.topic ?? "", a.environment ?? "")
                < (b.gateway.rawValue, b.token, b.topic ?? "", b.environment ?? "")
        }
    }

    private mutating func unlink(_ channel: String, _ device: PushDevice) {
        channelsByDevice[device]?.remove(channel)
        if channelsByDevice[device]?.isEmpty == true { channelsByDevice.removeValue(forKey: device) }
        devicesByChannel[channel]?.remove(device)
        if devicesByChannel[channel]?.isEmpty == true { devicesByChannel.removeValue(forKey: channel) }
    }
}
