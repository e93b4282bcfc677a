// SPDX-License-Identifier: MIT

extension PubNubClient {
    /// `/time/0`.
    public func time() async throws(PNStatus) -> PNTimeResult {
        try await perform(SubscribeEndpoints.time(), parse: Self.timeParser).get()
    }

    public func time(completion: @escaping @Sendable (Result<PNTimeResult, PNStatus>) -> Void) {
        run(SubscribeEndpoints.time(), parse: Self.timeParser, deliver: completion)
    }

    static let timeParser = shaped(SubscribeEndpoints.time()) { body in body[0]?.timetokenValue.map(PNTimeResult.init) }

    /// Publishes a message (encrypted when a cipher is set). `store`/`ttl`/`meta` are sent when given;
    /// `usePOST` sends the message as the request body instead of in the path.
    public func publish(_ message: JSONValue, channel: String, meta: JSONValue? = nil, store: Bool? = nil, ttl: Int? = nil,
                        usePOST: Bool = false, customMessageType: String? = nil) async throws(PNStatus) -> PNPublishResult
    {
        let request = try publishRequest(message, channel: channel, meta: meta, store: store, ttl: ttl, usePOST: usePOST,
                                         customMessageType: customMessageType)
        return try await perform(request, parse: PublishEndpoints.parse(request)).get()
    }

    public func publish(_ message: JSONValue, channel: String, meta: JSONValue? = nil, store: Bool? = nil, ttl: Int? = nil,
                        usePOST: Bool = false, completion: @escaping @Sendable (Result<PNPublishResult, PNStatus>) -> Void)
    {
        do {
            let request = try publishRequest(message, channel: channel, meta: meta, store: store, ttl: ttl, usePOST: usePOST)
            run(request, parse: PublishEndpoints.parse(request), deliver: completion)
        } catch {
            completion(.failure(error))
        }
    }

    /// Fires a message: a publish that is neither stored nor replicated (`store=0&norep=true`,
    /// spec §5.1), e.g. for Functions.
    public func fire(_ message: JSONValue, channel: String, meta: JSONValue? = nil, usePOST: Bool = false) async throws(PNStatus)
        -> PNPublishResult
    {
        let request = try publishRequest(message, channel: channel, meta: meta, store: false, ttl: nil, usePOST: usePOST, replicate: false)
        return try await perform(request, parse: PublishEndpoints.parse(request)).get()
    }

    /// Sends a signal (never encrypted, not stored).
    public func signal(_ message: JSONValue, channel: String, customMessageType: String? = nil) async throws(PNStatus) -> PNPublishResult {
        let request = try signalRequest(message, channel: channel, customMessageType: customMessageType)
        return try await perform(request, parse: PublishEndpoints.parse(request)).get()
    }

    public func signal(_ message: JSONValue, channel: String, completion: @escaping @Sendable (Result<PNPublishResult, PNStatus>) -> Void) {
        do {
            let request = try signalRequest(message, channel: channel)
            run(request, parse: PublishEndpoints.parse(request), deliver: completion)
        } catch {
            completion(.failure(error))
        }
    }

    private func publishKey(for operation: PNOperationType) throws(PNStatus) -> String {
        guard let key = configuration.publishKey else {
            throw PNStatus(category: .badRequest, operation: operation, errorData: PNErrorData(information: "no publish key configured"))
        }
        return key
    }

    func publishRequest(_ message: JSONValue, channel: String, meta: JSONValue?, store: Bool?, ttl: Int?, usePOST: Bool,
                        replicate: Bool = true, customMessageType: String? = nil) throws(PNStatus) -> PubNubRequest
    {
        try NameValidation.check([channel], kind: "channel", operation: .publish)
        let key = try publishKey(for: .publish)
        let config = configuration
        let text: String
        do {
            text = try MessageCrypto.encryptedText(message, cipher: config.cipher)
        } catch {
            throw PNStatus(category: .badRequest, operation: .publish, errorData: PNErrorData(information: "encryption failed: \(error)"))
        }
        let sequence = publishSequence.withLock { value in
            value = value % 65535 + 1
            return value
        }
        return PublishEndpoints.publish(publishKey: key, subscribeKey: config.subscribeKey, channel: channel, messageText: text,
                                        meta: meta, store: store, ttl: ttl, usePOST: usePOST, sequence: sequence,
                                        replicate: replicate, customMessageType: customMessageType)
    }

    func signalRequest(_ message: JSONValue, channel: String, customMessageType: String? = nil) throws(PNStatus) -> PubNubRequest {
        try NameValidation.check([channel], kind: "channel", operation: .signal)
        let key = try publishKey(for: .signal)
        return PublishEndpoints.signal(publishKey: key, subscribeKey: configuration.subscribeKey, channel: channel,
                                       messageText: message.jsonText, customMessageType: customMessageType)
    }
}
