// SPDX-License-Identifier: MIT
import PubNubToken

/// A resource a request touches, as tokens name them.
enum AccessResource: Sendable, Hashable {
    case channel(String)
    case group(String)
    case uuid(String)
}

/// One permission a request needs on one resource.
struct AccessRequirement: Sendable, Hashable {
    var resource: AccessResource
    var permission: TokenPermissions
}

/// What a request needs from a v3 token (spec §2.4, the permission model of PubNub's docs).
enum AccessRule: Sendable, Hashable {
    /// No permission (time, where now).
    case open
    /// Every listed requirement must hold.
    case resources([AccessRequirement])
    /// Only a request signed with the secret key (Access Manager itself, subkey-wide reads).
    case secretKeyOnly
}

/// The App Context operations, for their permission rules (the `objects` endpoint family).
enum ObjectsAccessOperation: Sendable, Hashable {
    case getAllUUIDMetadata, getUUIDMetadata, setUUIDMetadata, removeUUIDMetadata
    case getAllChannelMetadata, getChannelMetadata, setChannelMetadata, removeChannelMetadata
    /// `GET /v2/objects/{sub}/uuids/{uuid}/channels`.
    case getMemberships
    /// `PATCH /v2/objects/{sub}/uuids/{uuid}/channels` (set or remove), naming `channels`.
    case setMemberships
    /// `GET /v2/objects/{sub}/channels/{channel}/uuids`.
    case getMembers
    /// `PATCH /v2/objects/{sub}/channels/{channel}/uuids` (set or remove), naming `uuids`.
    case setMembers
}

/// The permission table: pure, one place for every endpoint.
enum AccessRequirements {
    /// The rule for `route`; `nil` for an endpoint this table does not list (its handler then
    /// applies its own checks).
    static func rule(for route: PubNubRoute) -> AccessRule? {
        table[route.endpoint]?(route)
    }

    /// `permission` on the route's channels and groups.
    private static func on(_ permission: TokenPermissions, channels: [String] = [], groups: [String] = []) -> AccessRule {
        .resources(channels.map { AccessRequirement(resource: .channel($0), permission: permission) }
            + groups.map { AccessRequirement(resource: .group($0), permission: permission) })
    }

    /// Endpoint → rule. A lookup rather than a switch, so an endpoint family added elsewhere
    /// stays unlisted, and thus handler-checked, until wired here.
    private static let table: [PubNubEndpoint: @Sendable (PubNubRoute) -> AccessRule] = {
        var table: [PubNubEndpoint: @Sendable (PubNubRoute) -> AccessRule] = [:]
        for endpoint: PubNubEndpoint in [.time, .admin, .whereNow] { table[endpoint] = { _ in .open } }
        for endpoint: PubNubEndpoint in [.publish, .signal, .addMessageAction] {
            table[endpoint] = { on(.write, channels: $0.channels) }
        }
        // Leave needs read as subscribe does: a PAM-denied leave is a 403 (pubnub-protocol.md §6, an
        // Objective-C fixture), as this service's v2 grants already answer it.
        for endpoint: PubNubEndpoint in [.subscribe, .heartbeat, .leave, .hereNow, .getState, .setState] {
            table[endpoint] = { on(.read, channels: $0.channels, groups: $0.channelGroups) }
        }
        for endpoint: PubNubEndpoint in [.history, .fetchMessages, .fetchMessagesWithActions, .messageCounts, .getMessageActions] {
            table[endpoint] = { on(.read, channels: $0.channels) }
        }
        for endpoint: PubNubEndpoint in [.deleteMessages, .removeMessageAction] {
            table[endpoint] = { on(.delete, channels: $0.channels) }
        }
        for endpoint: PubNubEndpoint in [.channelGroupAdd, .channelGroupRemoveChannels, .channelGroupDelete] {
            table[endpoint] = { on(.manage, groups: $0.channelGroups) }
        }
        // UNVERIFIED: read, as this service's v2 grants require for listing a group.
        table[.channelGroupList] = { on(.read, groups: $0.channelGroups) }
        // Subkey-wide reads and Access Manager itself: a token grants on named resources only (UNVERIFIED).
        for endpoint: PubNubEndpoint in [.globalHereNow, .channelGroupListGroups, .grant, .audit, .grantToken, .revokeToken, .grantV1, .auditV1] {
            table[endpoint] = { _ in .secretKeyOnly }
        }
        // App Context: the operation from the route; the body's ids once the gate has read them.
        table[.objects] = { route in
            guard let access = route.objectsAccess else { return .secretKeyOnly }
            return objects(
                access.operation, uuid: route.targetUUID, channel: route.channels.first,
                channels: access.operation == .setMemberships ? access.namedIDs : [],
                uuids: access.operation == .setMembers ? access.namedIDs : [])
        }
        return table
    }()

    /// The rule of an App Context operation on `uuid` / `channel`, naming the `channels` of a
    /// membership change or the `uuids` of a member change. get/update/delete on the object;
    /// memberships need `join` on each channel and `update` on the uuid; members need `manage`
    /// on the channel and `update` on each uuid (docs' permission model; the pairing of the
    /// second resource is INFERRED). Listing every object of a kind needs the secret key.
    static func objects(
        _ operation: ObjectsAccessOperation, uuid: String? = nil, channel: String? = nil,
        channels: [String] = [], uuids: [String] = []
    ) -> AccessRule {
        func need(_ resource: AccessResource?, _ permission: TokenPermissions) -> [AccessRequirement] {
            resource.map { [AccessRequirement(resource: $0, permission: permission)] } ?? []
        }
        let onUUID = uuid.map(AccessResource.uuid), onChannel = channel.map(AccessResource.channel)
        switch operation {
        case .getAllUUIDMetadata, .getAllChannelMetadata: return .secretKeyOnly
        case .getUUIDMetadata: return .resources(need(onUUID, .get))
        case .setUUIDMetadata: return .resources(need(onUUID, .update))
        case .removeUUIDMetadata: return .resources(need(onUUID, .delete))
        case .getChannelMetadata: return .resources(need(onChannel, .get))
        case .setChannelMetadata: return .resources(need(onChannel, .update))
        case .removeChannelMetadata: return .resources(need(onChannel, .delete))
        case .getMemberships: return .resources(need(onUUID, .get))
        case .setMemberships:
            return .resources(need(onUUID, .update) + channels.map { AccessRequirement(resource: .channel($0), permission: .join) })
        case .getMembers: return .resources(need(onChannel, .get))
        case .setMembers:
            return .resources(need(onChannel, .manage) + uuids.map { AccessRequirement(resource: .uuid($0), permission: .update) })
        }
    }
}
