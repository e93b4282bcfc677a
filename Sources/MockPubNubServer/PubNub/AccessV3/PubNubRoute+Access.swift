// SPDX-License-Identifier: MIT

extension PubNubRoute {
    /// `/v3/pam/{sub}/grant` (POST) and `/v3/pam/{sub}/grant/{token}` (DELETE), after `v3/pam`.
    static func classifyAccessV3(_ s: [String], method: String, route base: PubNubRoute) -> Result<PubNubRoute, RouteError> {
        var route = base
        guard s.count >= 2, s[1] == "grant" else { return .failure(.notFound) }
        route.subscribeKey = s[0]
        switch (s.count, method) {
        case (2, "POST"):
            route.endpoint = .grantToken
        case (3, "DELETE"):
            route.endpoint = .revokeToken
            route.token = s[2]
        default:
            return .failure(.notFound)
        }
        return .success(route)
    }

    /// `/v1/auth/grant/sub-key/{sub}` and `/v1/auth/audit/sub-key/{sub}` (GET), after `v1/auth`.
    static func classifyAccessV1(_ s: [String], isRead: Bool, route base: PubNubRoute) -> Result<PubNubRoute, RouteError> {
        var route = base
        guard isRead, s.count == 3, s[1] == "sub-key", s[0] == "grant" || s[0] == "audit" else { return .failure(.notFound) }
        route.endpoint = s[0] == "grant" ? .grantV1 : .auditV1
        route.subscribeKey = s[2]
        route.channels = PubNubRoute.splitList(route.query["channel"])
        return .success(route)
    }
}
