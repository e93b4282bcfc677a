// SPDX-License-Identifier: MIT

/// Access rights given in process, without a signed grant request (same effect as spec §9.2 grants).
public struct AccessGrant: Sendable, Hashable {
    /// Channels granted; with `groups` also empty, the grant is subkey-wide.
    public var channels: [String]
    public var groups: [String]
    /// Auth keys granted; empty means every auth key.
    public var authKeys: [String]
    public var read: Bool
    public var write: Bool
    public var manage: Bool
    public var delete: Bool
    /// Minutes until the grant lapses (service clock); 0 never lapses. All flags false revokes.
    public var ttlMinutes: Int

    public init(
        channels: [String] = [], groups: [String] = [], authKeys: [String] = [], read: Bool = false,
        write: Bool = false, manage: Bool = false, delete: Bool = false, ttlMinutes: Int = 1440
    ) {
        self.channels = channels
        self.groups = groups
        self.authKeys = authKeys
        self.read = read
        self.write = write
        self.manage = manage
        self.delete = delete
        self.ttlMinutes = ttlMinutes
    }
}

extension PubNubService {
    /// Stores `grant` on `subscribeKey` as a signed grant request would.
    public func grant(_ grant: AccessGrant, subscribeKey: String) {
        let permissions = Permissions(read: grant.read, write: grant.write, manage: grant.manage, delete: grant.delete)
        let minutes = Int64(min(max(grant.ttlMinutes, 0), 525_600))
        let expiresAt: Int64? = minutes == 0 ? nil : clock.unixSeconds + minutes * 60
        let targets: [GrantTarget] = grant.channels.isEmpty && grant.groups.isEmpty
            ? [.subkey] : grant.channels.map(GrantTarget.channel) + grant.groups.map(GrantTarget.group)
        let auths: [String?] = grant.authKeys.isEmpty ? [nil] : grant.authKeys.map(Optional.some)
        withState(subscribeKey) { state, _, _ in
            for target in targets {
                for auth in auths {
                    state.grants[GrantKey(target: target, auth: auth)] = GrantRecord(permissions: permissions, expiresAt: expiresAt)
                }
            }
        }
    }

    /// Publishes `message` (JSON text) on `channel` as `publisher`, bypassing keys and Access
    /// Manager (for test drivers); returns its timetoken.
    @discardableResult
    public func inject(
        subscribeKey: String, channel: String, message: String, publisher: String? = nil
    ) throws(PubNubServiceError) -> UInt64 {
        guard ChannelNames.isValid(channel) else { throw .invalidChannel(channel) }
        guard PubNubJSON.isValid(message) else { throw .invalidJSON(message) }
        return withState(subscribeKey) { state, outbox, env in
            let timetoken = env.timetokens.next()
            state.append(
                StoredMessage(timetoken: timetoken, channel: channel, kind: .message, payload: message,
                              publisher: publisher, inHistory: true, live: true),
                env: env, outbox: &outbox)
            return timetoken
        }
    }
}
