// SPDX-License-Identifier: MIT
import HarnessJSON

/// An Access Manager v3 grant as cases and drivers describe it: resources and patterns per kind
/// with their permission masks (read 1, write 2, manage 4, delete 8, get 32, update 64, join 128),
/// the ttl in minutes, an optional authorized uuid and meta (spec: pubnub-modern.md §2.1).
public struct TokenGrant: Sendable, Hashable {
    public var ttl: Int
    public var channels: [String: Int]
    public var groups: [String: Int]
    public var uuids: [String: Int]
    public var channelPatterns: [String: Int]
    public var groupPatterns: [String: Int]
    public var uuidPatterns: [String: Int]
    /// `{uuid}` is replaced by the case's uuid.
    public var authorizedUUID: String?
    public var meta: JSONValue?

    public init(
        ttl: Int = 60, channels: [String: Int] = [:], groups: [String: Int] = [:], uuids: [String: Int] = [:],
        channelPatterns: [String: Int] = [:], groupPatterns: [String: Int] = [:], uuidPatterns: [String: Int] = [:],
        authorizedUUID: String? = nil, meta: JSONValue? = nil
    ) {
        self.ttl = ttl
        self.channels = channels
        self.groups = groups
        self.uuids = uuids
        self.channelPatterns = channelPatterns
        self.groupPatterns = groupPatterns
        self.uuidPatterns = uuidPatterns
        self.authorizedUUID = authorizedUUID
        self.meta = meta
    }

    /// The permission bits by name.
    public static let read = 1, write = 2, manage = 4, delete = 8, get = 32, update = 64, join = 128

    private static func masks(_ entries: [String: Int]) -> JSONValue {
        .object(JSONObject(entries.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) }))
    }

    /// The driver-protocol fields (docs/driver-protocol.md, `grantToken`).
    var driverFields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "ttl": .int(ttl), "channels": Self.masks(channels), "groups": Self.masks(groups), "uuids": Self.masks(uuids),
            "channelPatterns": Self.masks(channelPatterns), "groupPatterns": Self.masks(groupPatterns),
            "uuidPatterns": Self.masks(uuidPatterns),
        ]
        if let authorizedUUID { fields["authorizedUUID"] = .string(authorizedUUID) }
        if let meta { fields["meta"] = meta }
        return fields
    }

    /// The grant-token request body (as the Python SDK writes it) for the admin token route.
    var requestBody: JSONValue {
        func kinds(_ c: [String: Int], _ g: [String: Int], _ u: [String: Int]) -> JSONValue {
            .object(JSONObject([("channels", Self.masks(c)), ("groups", Self.masks(g)), ("uuids", Self.masks(u))]))
        }
        var permissions: [(String, JSONValue)] = [
            ("resources", kinds(channels, groups, uuids)), ("patterns", kinds(channelPatterns, groupPatterns, uuidPatterns)),
            ("meta", meta ?? .object(JSONObject([(String, JSONValue)]()))),
        ]
        if let authorizedUUID { permissions.append(("uuid", .string(authorizedUUID))) }
        return .object(JSONObject([("ttl", .int(ttl)), ("permissions", .object(JSONObject(permissions)))]))
    }

    /// A copy with `{uuid}` in the authorized uuid replaced.
    func substituting(_ substitute: (String) -> String) -> TokenGrant {
        var copy = self
        copy.authorizedUUID = authorizedUUID.map(substitute)
        return copy
    }
}
