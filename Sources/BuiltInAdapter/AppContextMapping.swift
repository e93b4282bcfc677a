// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit
import HarnessJSON

/// Maps ``AppContextOperation``s to `PubNubClient`'s App Context API; results as
/// docs/driver-protocol.md describes them.
enum AppContextMapping {
    static func perform(_ operation: AppContextOperation, on client: PubNubClient) async throws(PNStatus) -> OperationResult {
        switch operation {
        case .getUUIDMetadata(let uuid, let include):
            return object(try await client.getUUIDMetadata(uuid: uuid, include: include))
        case .setUUIDMetadata(let uuid, let metadata, let include, let eTag):
            return object(try await client.setUUIDMetadata(uuid: uuid, metadata, include: include, ifMatchesETag: eTag))
        case .removeUUIDMetadata(let uuid):
            return try acknowledgment(await client.removeUUIDMetadata(uuid: uuid))
        case .getAllUUIDMetadata(let options):
            return list(try await client.getAllUUIDMetadata(query(options)))
        case .getChannelMetadata(let channel, let include):
            return object(try await client.getChannelMetadata(channel: channel, include: include))
        case .setChannelMetadata(let channel, let metadata, let include, let eTag):
            return object(try await client.setChannelMetadata(channel: channel, metadata, include: include, ifMatchesETag: eTag))
        case .removeChannelMetadata(let channel):
            return try acknowledgment(await client.removeChannelMetadata(channel: channel))
        case .getAllChannelMetadata(let options):
            return list(try await client.getAllChannelMetadata(query(options)))
        case .getMemberships(let uuid, let options):
            return list(try await client.getMemberships(uuid: uuid, query(options)))
        case .setMemberships(let uuid, let channels, let options):
            return list(try await client.setMemberships(uuid: uuid, channels: channels.map(input), query(options)))
        case .removeMemberships(let uuid, let channels, let options):
            return list(try await client.removeMemberships(uuid: uuid, channels: channels, query(options)))
        case .manageMemberships(let uuid, let set, let remove, let options):
            return list(try await client.manageMemberships(uuid: uuid, set: set.map(input), remove: remove, query(options)))
        case .getMembers(let channel, let options):
            return list(try await client.getMembers(channel: channel, query(options)))
        case .setMembers(let channel, let uuids, let options):
            return list(try await client.setMembers(channel: channel, uuids: uuids.map(input), query(options)))
        case .removeMembers(let channel, let uuids, let options):
            return list(try await client.removeMembers(channel: channel, uuids: uuids, query(options)))
        case .manageMembers(let channel, let set, let remove, let options):
            return list(try await client.manageMembers(channel: channel, set: set.map(input), remove: remove, query(options)))
        }
    }

    static func query(_ o: AppContextListOptions) -> PNAppContextQuery {
        PNAppContextQuery(include: o.include, limit: o.limit, sort: o.sort, filter: o.filter, start: o.start, end: o.end,
                          includeCount: o.includeCount)
    }

    static func input(_ m: AppContextMembership) -> PNMembershipInput {
        PNMembershipInput(id: m.id, custom: m.custom, status: m.status, type: m.type)
    }

    static func object(_ result: PNAppContextObjectResult) -> OperationResult {
        OperationMapping.success(["data": result.data])
    }

    static func list(_ result: PNAppContextListResult) -> OperationResult {
        var members: [(String, JSONValue)] = [("data", .array(result.data))]
        if let total = result.totalCount { members.append(("totalCount", .int(total))) }
        if let next = result.next { members.append(("next", .string(next))) }
        if let prev = result.prev { members.append(("prev", .string(prev))) }
        return OperationMapping.success(.object(JSONObject(members)))
    }

    /// A removal's status: thrown when it is an error, so the caller maps it like other failures.
    static func acknowledgment(_ status: PNStatus) throws(PNStatus) -> OperationResult {
        if status.isError { throw status }
        return OperationMapping.result(of: status)
    }
}
