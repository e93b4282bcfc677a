// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit
import HarnessJSON
import PubNubToken

/// The Access Manager v3 operations on `PubNubClient` (data shapes of docs/driver-protocol.md).
enum TokenOperationMapping {
    static func perform(_ operation: ClientOperation, on client: PubNubClient) async -> OperationResult {
        switch operation {
        case .grantToken(let grant):
            func bits(_ entries: [String: Int]) -> [String: TokenPermissions] { entries.mapValues { TokenPermissions(rawValue: $0) } }
            let request = PNTokenGrant(
                ttl: grant.ttl, channels: bits(grant.channels), groups: bits(grant.groups), uuids: bits(grant.uuids),
                channelPatterns: bits(grant.channelPatterns), groupPatterns: bits(grant.groupPatterns),
                uuidPatterns: bits(grant.uuidPatterns), authorizedUUID: grant.authorizedUUID, meta: grant.meta)
            switch await client.grantToken(request) {
            case .success(let token): return OperationMapping.success(["token": .string(token)])
            case .failure(let status): return OperationMapping.result(of: status)
            }
        case .revokeToken(let token):
            return OperationMapping.result(of: await client.revokeToken(token))
        case .setToken(let token):
            client.setToken(token.isEmpty ? nil : token)
            // Taken locally: no request, no category of its own.
            return OperationResult(category: nil, isError: false, statusCode: nil, data: [:])
        case .parseToken(let token):
            guard let parsed = client.parseToken(token) else {
                return .failure(.badRequest, data: ["information": "not an Access Manager v3 token"])
            }
            return OperationMapping.success(parsedData(parsed))
        default:
            return .failure(.unknown, data: ["information": .string("not a token operation: \(operation.name)")])
        }
    }

    /// A parsed token as driver data: kind → name → mask for resources and patterns.
    static func parsedData(_ token: AccessToken) -> JSONValue {
        func side(_ grants: TokenGrants) -> JSONValue {
            .object(JSONObject(TokenResourceKind.allCases.compactMap { kind -> (String, JSONValue)? in
                let entries = grants[kind]
                guard !entries.isEmpty else { return nil }
                return (kind.bodyName, .object(JSONObject(entries.map { ($0.name, JSONValue.int($0.mask)) })))
            }))
        }
        var members: [(String, JSONValue)] = [
            ("version", .int(token.version)), ("timestamp", .int(token.timestamp)), ("ttl", .int(token.ttl)),
            ("resources", side(token.resources)), ("patterns", side(token.patterns)), ("meta", token.metaJSON),
        ]
        members.append(("authorizedUUID", token.authorizedUUID.map(JSONValue.string) ?? .null))
        return .object(JSONObject(members))
    }
}
