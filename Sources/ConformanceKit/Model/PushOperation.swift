// SPDX-License-Identifier: MIT
import HarnessJSON

/// A device a push case registers: its token and gateway (`apns`, `apns2`, `gcm`, `fcm`,
/// `mpns`), and for APNs2 its topic and environment.
public struct PushTarget: Sendable, Hashable {
    public var deviceToken: String
    public var pushType: String
    public var topic: String?
    public var environment: String?

    public init(deviceToken: String, pushType: String, topic: String? = nil, environment: String? = nil) {
        self.deviceToken = deviceToken
        self.pushType = pushType
        self.topic = topic
        self.environment = environment
    }
}

/// The mobile push registration operations (docs/driver-protocol.md). Add, remove and remove
/// device answer an acknowledgment; list answers `{"channels": [...]}`.
public enum PushOperation: Sendable, Hashable {
    case addChannels([String], PushTarget)
    case removeChannels([String], PushTarget)
    case listChannels(PushTarget)
    case removeDevice(PushTarget)

    /// The operation's name on the driver protocol.
    public var name: String {
        switch self {
        case .addChannels: "addPushChannels"
        case .removeChannels: "removePushChannels"
        case .listChannels: "listPushChannels"
        case .removeDevice: "removePushDevice"
        }
    }

    /// The target of the operation.
    public var target: PushTarget {
        switch self {
        case .addChannels(_, let target), .removeChannels(_, let target), .listChannels(let target), .removeDevice(let target):
            target
        }
    }

    /// The driver-protocol fields besides `type`.
    var driverFields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "deviceToken": .string(target.deviceToken), "pushType": .string(target.pushType),
        ]
        if let topic = target.topic { fields["topic"] = .string(topic) }
        if let environment = target.environment { fields["environment"] = .string(environment) }
        switch self {
        case .addChannels(let channels, _), .removeChannels(let channels, _):
            fields["channels"] = .array(channels.map { .string($0) })
        case .listChannels, .removeDevice:
            break
        }
        return fields
    }
}
