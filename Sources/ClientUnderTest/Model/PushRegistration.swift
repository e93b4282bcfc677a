// SPDX-License-Identifier: MIT

/// The push gateway of a device registration.
public enum PNPushType: String, Sendable, CaseIterable {
    case apns, apns2, gcm, fcm, mpns
}

/// APNs2 environments.
public enum PNPushEnvironment: String, Sendable, CaseIterable {
    case development, production
}

/// A device to register for mobile push: its token and gateway, and for APNs2 its topic
/// (bundle id) and environment.
public struct PNPushDevice: Sendable, Equatable {
    public var token: String
    public var type: PNPushType
    public var topic: String?
    public var environment: PNPushEnvironment

    public init(token: String, type: PNPushType, topic: String? = nil, environment: PNPushEnvironment = .development) {
        self.token = token
        self.type = type
        self.topic = topic
        self.environment = environment
    }
}

/// The channels a device is registered on.
public struct PNPushChannelsResult: Sendable, Equatable {
    public let channels: [String]
}
