// SPDX-License-Identifier: MIT

/// What an App Context request asks of a v3 token: its operation and, for a membership or member
/// change, the channels or uuids its PATCH body names (read by the access gate, not at routing).
struct ObjectsAccess: Sendable, Hashable {
    var operation: ObjectsAccessOperation
    /// The `channel.id`s (memberships) or `uuid.id`s (members) of the body's `set` and `delete`
    /// items, in order, without repeats; empty until the gate reads the body.
    var namedIDs: [String] = []

    /// Whether the rule depends on the ids the body names.
    var readsBody: Bool { operation == .setMemberships || operation == .setMembers }

    /// The ids a membership (`key` = `channel`) or member (`key` = `uuid`) PATCH body names, read
    /// with the App Context body decoding; empty for a body the handler will refuse (400 or 415
    /// after the token check, which then needs only the path's resource; UNVERIFIED order).
    static func namedIDs(in request: HTTPRequest, key: String) -> [String] {
        guard case .success(let bytes) = ContentDecoding.body(of: request, limit: PubNubService.maxObjectsBodyBytes),
            case .success(let patch) = MembershipPatch.parse(bytes, key: key)
        else { return [] }
        var ids: [String] = []
        for change in patch.set + patch.delete where !ids.contains(change.id) { ids.append(change.id) }
        return ids
    }
}

extension ObjectsResource {
    /// The permission-table operation of `method` on this resource (HEAD reads like GET).
    func accessOperation(method: String) -> ObjectsAccessOperation {
        switch (self, method) {
        case (.uuids, _): .getAllUUIDMetadata
        case (.channels, _): .getAllChannelMetadata
        case (.uuid, "PATCH"): .setUUIDMetadata
        case (.uuid, "DELETE"): .removeUUIDMetadata
        case (.uuid, _): .getUUIDMetadata
        case (.channel, "PATCH"): .setChannelMetadata
        case (.channel, "DELETE"): .removeChannelMetadata
        case (.channel, _): .getChannelMetadata
        case (.memberships, "PATCH"): .setMemberships
        case (.memberships, _): .getMemberships
        case (.members, "PATCH"): .setMembers
        case (.members, _): .getMembers
        }
    }
}
