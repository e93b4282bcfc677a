// SPDX-License-Identifier: MIT

extension PubNubService {
    /// `GET /v2/auth/audit/sub-key/{sub}` (Access Manager v2): the grants in force for the named
    /// channel, channel group and auth keys, or every grant of the keyset; signed as a v2 grant
    /// is (docs/access-manager.md, "Audit").
    func audit(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let now: Int64
        switch v2SignedKeyset(route, request: request) {
        case .failure(let refusal): return refusal.response
        case .success(let signed): now = signed.now
        }
        let audit = AuditRequest(route)
        // UNVERIFIED wording; the status and layout are those of the recorded auth-only grant refusal.
        if audit.isAuthOnly { return PubNubErrors.accessManager(400, "Auth keys need a channel or channel group") }
        return withState(subscribeKey) { state, _, _ in
            .pubNub(200, audit.responseBody(grants: state.grants, subscribeKey: subscribeKey, now: now), .unquoted)
        }
    }
}
