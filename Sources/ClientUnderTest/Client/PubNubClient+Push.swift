// SPDX-License-Identifier: MIT

extension PubNubClient {
    /// Registers `device` for push notifications on `channels`.
    public func addPushChannels(_ channels: [String], device: PNPushDevice) async -> PNStatus {
        switch pushRequest(.addPushChannels, device: device, channels: channels, add: channels) {
        case .success(let request): await acknowledge(request)
        case .failure(let status): status
        }
    }

    /// Unregisters `device` from `channels`.
    public func removePushChannels(_ channels: [String], device: PNPushDevice) async -> PNStatus {
        switch pushRequest(.removePushChannels, device: device, channels: channels, remove: channels) {
        case .success(let request): await acknowledge(request)
        case .failure(let status): status
        }
    }

    /// Unregisters `device` from every channel.
    public func removePushDevice(_ device: PNPushDevice) async -> PNStatus {
        switch pushRequest(.removeAllPushNotifications, device: device, channels: [], removesDevice: true) {
        case .success(let request): await acknowledge(request)
        case .failure(let status): status
        }
    }

    /// The channels `device` is registered on.
    public func pushChannels(for device: PNPushDevice) async throws(PNStatus) -> PNPushChannelsResult {
        let request = try pushRequest(.pushNotificationEnabledChannels, device: device, channels: []).get()
        return try await perform(request, parse: Self.shaped(request, PushEndpoints.parseChannels)).get()
    }

    /// Validates like the SDKs do before sending: a token, channels for add/remove, an APNs2 topic.
    private func pushRequest(_ operation: PNOperationType, device: PNPushDevice, channels: [String],
                             add: [String]? = nil, remove: [String]? = nil, removesDevice: Bool = false)
        -> Result<PubNubRequest, PNStatus>
    {
        func refuse(_ text: String) -> Result<PubNubRequest, PNStatus> {
            .failure(PNStatus(category: .badRequest, operation: operation, errorData: PNErrorData(information: text)))
        }
        if device.token.isEmpty { return refuse("device token missing") }
        if device.type == .apns2 && (device.topic ?? "").isEmpty { return refuse("APNs2 topic missing") }
        if (add != nil || remove != nil) && channels.isEmpty { return refuse("channels missing") }
        do throws(PNStatus) {
            try NameValidation.check(channels, kind: "channel", operation: operation)
        } catch { return .failure(error) }
        return .success(PushEndpoints.request(operation, device: device, subscribeKey: configuration.subscribeKey,
                                              add: add, remove: remove, removesDevice: removesDevice))
    }
}
