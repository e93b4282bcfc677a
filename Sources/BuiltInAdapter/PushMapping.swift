// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit
import HarnessJSON

/// Maps the push registration operations to `PubNubClient` calls.
enum PushMapping {
    static func perform(_ operation: PushOperation, on client: PubNubClient) async throws -> OperationResult {
        let device = try device(operation.target)
        switch operation {
        case .addChannels(let channels, _):
            return OperationMapping.result(of: await client.addPushChannels(channels, device: device))
        case .removeChannels(let channels, _):
            return OperationMapping.result(of: await client.removePushChannels(channels, device: device))
        case .removeDevice:
            return OperationMapping.result(of: await client.removePushDevice(device))
        case .listChannels:
            let result = try await client.pushChannels(for: device)
            return OperationMapping.success(["channels": .array(result.channels.map { .string($0) })])
        }
    }

    /// The client's device for `target`; an unknown type or environment is a broken case step.
    static func device(_ target: PushTarget) throws -> PNPushDevice {
        guard let type = PNPushType(rawValue: target.pushType) else {
            throw ClientAdapterError.protocolViolation("unknown push type: \(target.pushType)")
        }
        guard let environment = PNPushEnvironment(rawValue: target.environment ?? "development") else {
            throw ClientAdapterError.protocolViolation("unknown push environment: \(target.environment ?? "")")
        }
        return PNPushDevice(token: target.deviceToken, type: type, topic: target.topic, environment: environment)
    }
}
