// SPDX-License-Identifier: MIT
import PubNubToken

extension PubNubService {
    /// The Access Manager gate in front of every endpoint of a keyset with Access Manager on:
    /// a request signed with the secret key is a server-side request with root rights (a wrong
    /// or stale signature is refused); a v3 token in `auth` is checked against the permission
    /// table (`AccessRequirements`); otherwise the endpoint's own v2 grant checks apply. Sets
    /// `route.accessDecided` when access is settled here; returns the refusal, if any.
    func accessGate(_ route: inout PubNubRoute, request: HTTPRequest) -> HTTPResponse? {
        switch route.endpoint {
        case .time, .admin, .grant, .grantToken, .revokeToken, .grantV1, .auditV1: return nil
        default: break
        }
        guard let subscribeKey = route.subscribeKey, let keyset = keyset(for: subscribeKey) else { return nil }
        let entry = entry(subscribeKey)
        let now = accessNow(entry)
        switch RequestAuthentication.check(request, route: route, keyset: keyset, now: now, window: signatureWindow) {
        case .valid:
            route.accessDecided = true
            return nil
        case .badTimestamp, .badSignature:
            return RequestAuthentication.refusal(RequestAuthentication.check(
                request, route: route, keyset: keyset, now: now, window: signatureWindow))
        case .unsigned:
            break
        }
        guard let auth = route.query["auth"], let parsed = try? AccessToken.parse(auth) else { return nil }
        guard let rule = AccessRequirements.rule(for: route) else { return nil }
        guard parsed.version == 2, parsed.signature == TokenIssuer.signature(of: parsed, secretKey: keyset.secretKey) else {
            // UNVERIFIED: a token this keyset did not issue.
            return AccessV3Bodies.tokenRefused("Invalid token")
        }
        let isRevoked = entry.keyspace.state.withLock { $0.tokenLedger.revoked.contains(parsed.signature) }
        switch TokenAuthorization.verdict(parsed, rule: rule, uuid: route.uuid, now: now, isRevoked: isRevoked) {
        case .allowed:
            route.accessDecided = true
            return nil
        case .invalid:
            return AccessV3Bodies.tokenRefused("Invalid token")
        case .revoked:
            return AccessV3Bodies.tokenRefused("Token is revoked")
        case .expired:
            // UNVERIFIED text: the feature file's "Token is expired." without the period, as the live revoked text.
            return AccessV3Bodies.tokenRefused("Token is expired")
        case .wrongUUID:
            // INFERRED: the legacy Forbidden body without payload.
            return PubNubErrors.forbidden(channels: [], groups: [])
        case .denied(let channels, let groups, _):
            let layout: PubNubErrors.ForbiddenLayout = route.endpoint == .publish || route.endpoint == .signal ? .spaced : .compact
            return PubNubErrors.forbidden(channels: channels, groups: groups, layout: layout)
        }
    }
}
