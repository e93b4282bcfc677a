// SPDX-License-Identifier: MIT

extension PubNubClient {
    /// Access Manager grant v2 (`GET /v2/auth/grant/sub-key/{sub}`), signed with the secret key.
    /// Without channels and groups the grant is at subscribe-key level. `ttl` in minutes (nil = the
    /// server's default). Returns `PNAcknowledgmentCategory` on success; without a secret key a
    /// `PNBadRequestCategory` status and no request.
    public func grant(channels: [String] = [], channelGroups: [String] = [], authKeys: [String] = [], read: Bool,
                      write: Bool, manage: Bool = false, delete: Bool = false, ttl: Int? = nil) async -> PNStatus
    {
        let config = configuration
        guard config.secretKey != nil, config.publishKey != nil else {
            return PNStatus(category: .badRequest, operation: .grant,
                            errorData: PNErrorData(information: "grant needs secretKey and publishKey"))
        }
        do throws(PNStatus) {
            try NameValidation.check(channels, kind: "channel", operation: .grant)
            try NameValidation.check(channelGroups, kind: "channel group", operation: .grant)
        } catch { return error }
        var query: [(String, String)] = []
        if !authKeys.isEmpty { query.append(("auth", authKeys.joined(separator: ","))) }
        if !channels.isEmpty { query.append(("channel", channels.joined(separator: ","))) }
        if !channelGroups.isEmpty { query.append(("channel-group", channelGroups.joined(separator: ","))) }
        query += [("r", read ? "1" : "0"), ("w", write ? "1" : "0"), ("m", manage ? "1" : "0"), ("d", delete ? "1" : "0")]
        if let ttl { query.append(("ttl", String(ttl))) }
        let request = PubNubRequest(operation: .grant, path: "/v2/auth/grant/sub-key/\(PercentEncoding.encode(config.subscribeKey))",
                                    query: query, sendsAuth: false, channels: channels, groups: channelGroups)
        return await acknowledge(request)
    }
}
