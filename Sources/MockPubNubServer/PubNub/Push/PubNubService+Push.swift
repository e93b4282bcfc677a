// SPDX-License-Identifier: MIT

extension PubNubService {
    /// Mobile push registration (spec §7): add or remove channels of a device, list them, or
    /// remove the device, per token and gateway (and for APNs2 per topic and environment).
    func push(_ route: PubNubRoute) -> HTTPResponse {
        guard let request = route.push else { return PubNubErrors.couldNotParse() }
        let device: PushDevice
        switch PushValidation.device(request, query: route.query) {
        case .success(let valid): device = valid
        case .failure(let error): return PushBodies.error(error.message)
        }
        let added = PubNubRoute.splitList(route.query["add"])
        let removed = PubNubRoute.splitList(route.query["remove"])
        guard (added + removed).allSatisfy(ChannelNames.isValid) else {
            // UNVERIFIED: the push service's answer to a reserved character in a channel name.
            return PushBodies.error("Invalid channel name")
        }
        return withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.read, channels: added + removed, groups: [], route: route, state: state, env: env) {
                return denied
            }
            if request.removesDevice {
                state.push.removeDevice(device)
                return .pubNub(200, PushBodies.removedDevice)
            }
            if route.query["add"] == nil && route.query["remove"] == nil {
                return .pubNub(200, PubNubJSON.stringArray(state.push.channels(of: device)))
            }
            // UNVERIFIED: a request naming both lists adds first, then removes.
            state.push.add(added, for: device)
            state.push.remove(removed, for: device)
            return .pubNub(200, PushBodies.modifiedChannels)
        }
    }

    /// The push notices a publish of `message` on `channel` raises (called under the keyspace lock).
    func pushNotices(
        message: String, channel: String, timetoken: UInt64, publisher: String?, state: KeyspaceState,
        env: ServiceEnvironment
    ) -> [PushNotice] {
        PushNotice.notices(
            message: message, channel: channel, timetoken: timetoken, publisher: publisher,
            subscribeKey: env.subscribeKey, devices: state.push.devices(on: channel))
    }
}

/// The push service's bodies (recorded: `text/javascript; charset="UTF-8"`, a space after the comma).
enum PushBodies {
    static let modifiedChannels = "[1, \"Modified Channels\"]"
    static let removedDevice = "[1, \"Removed Device\"]"

    /// `{"error": "<message>"}` with status 400 (recorded for a missing type and a bad token).
    static func error(_ message: String) -> HTTPResponse {
        .pubNub(400, "{\"error\": " + PubNubJSON.quote(message) + "}")
    }
}

/// Checks the device of a push request: its gateway (`type`), token, and APNs2 topic and environment.
enum PushValidation {
    struct Failure: Error, Hashable {
        var message: String
    }

    /// The APNs2 environments; `development` when none is given (as the SDKs default).
    static let environments: Set<String> = ["development", "production"]

    static func device(_ request: PushRequest, query: [QueryItem]) -> Result<PushDevice, Failure> {
        let gateway: PushGateway
        if request.isAPNs2 {
            // js sends `type=apns2`, py sends none; both are accepted (UNVERIFIED: other values).
            gateway = .apns2
        } else {
            guard let type = query["type"].flatMap(PushGateway.init(rawValue:)), type != .apns2 else {
                return .failure(Failure(message: "Invalid type argument"))
            }
            gateway = type
        }
        guard isValidToken(request.token, gateway: gateway) else { return .failure(Failure(message: "Invalid device token")) }
        guard gateway == .apns2 else {
            return .success(PushDevice(gateway: gateway, token: request.token))
        }
        // UNVERIFIED wording: the SDKs check the topic before sending, so no answer is recorded.
        guard let topic = query["topic"], !topic.isEmpty else { return .failure(Failure(message: "Missing topic")) }
        let environment = query["environment"].flatMap { $0.isEmpty ? nil : $0 } ?? "development"
        guard environments.contains(environment) else { return .failure(Failure(message: "Invalid environment")) }
        return .success(PushDevice(gateway: gateway, token: request.token, topic: topic, environment: environment))
    }

    /// APNs tokens are hexadecimal (recorded: a non-hex APNs token is refused with
    /// `Invalid device token`); other gateways' tokens are any text without control characters
    /// (UNVERIFIED), at most 1024 bytes.
    static func isValidToken(_ token: String, gateway: PushGateway) -> Bool {
        guard !token.isEmpty, token.utf8.count <= 1024 else { return false }
        switch gateway {
        case .apns, .apns2:
            return token.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
        case .gcm, .fcm, .mpns:
            return !token.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        }
    }
}
