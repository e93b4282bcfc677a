// SPDX-License-Identifier: MIT
import PubNubToken

extension PubNubService {
    /// `POST /v3/pam/{sub}/grant` (spec §2.1): a signed request with a JSON body; answers the token.
    func grantToken(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let entry = entry(subscribeKey)
        guard let keyset = entry.keyset else {
            // UNVERIFIED: a grant on a key without Access Manager; the v2 grant's answer.
            return PubNubErrors.accessManager(400, "Invalid Subscribe Key")
        }
        let now = accessNow(entry)
        let check = RequestAuthentication.check(request, route: route, keyset: keyset, now: now, window: signatureWindow)
        guard check == .valid else {
            return RequestAuthentication.refusal(check) ?? PubNubErrors.accessManager(403, "Signature Does Not Match")
        }
        switch TokenGrantBody.parse(request.body) {
        case .failure(let problem):
            return AccessV3Bodies.grantError(problem)
        case .success(let grant):
            return AccessV3Bodies.granted(TokenIssuer.issue(grant, now: now, secretKey: keyset.secretKey).text)
        }
    }

    /// `DELETE /v3/pam/{sub}/grant/{token}` (spec §2.2): signed; 200 once revoked (again: 200).
    func revokeToken(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let entry = entry(subscribeKey)
        guard let keyset = entry.keyset else { return PubNubErrors.accessManager(400, "Invalid Subscribe Key") }
        let now = accessNow(entry)
        let check = RequestAuthentication.check(request, route: route, keyset: keyset, now: now, window: signatureWindow)
        guard check == .valid else {
            return RequestAuthentication.refusal(check) ?? PubNubErrors.accessManager(403, "Signature Does Not Match")
        }
        guard let text = route.token, let token = TokenIssuer.verified(text, secretKey: keyset.secretKey) else {
            // UNVERIFIED detail text (the feature file names message, source and location only).
            return AccessV3Bodies.revokeError(status: 400, message: "Invalid token", detail: "Token is invalid.", location: "token")
        }
        if now >= token.expiresAt {
            return AccessV3Bodies.revokeError(status: 400, message: "Invalid token", detail: "Token is expired.", location: "token")
        }
        entry.keyspace.state.withLock { _ = $0.tokenLedger.revoked.insert(token.signature) }
        return AccessV3Bodies.revoked()
    }

    /// The access clock of a keyspace: the service clock plus the keyspace's admin offset.
    func accessNow(_ entry: KeyEntry) -> Int64 {
        clock.unixSeconds + entry.keyspace.state.withLock { $0.tokenLedger.clockOffset }
    }

    /// The accepted distance between a signed request's `timestamp` and the access clock.
    var signatureWindow: Int64 { configuration.pamTimestampWindow.components.seconds }

    /// Moves the access clock of `subscribeKey` forward by `seconds` (token and grant expiry),
    /// for cases that let a short-lived token lapse; returns the new offset.
    @discardableResult
    public func advanceAccessClock(subscribeKey: String, seconds: Int64) -> Int64 {
        entry(subscribeKey).keyspace.state.withLock { state in
            state.tokenLedger.clockOffset += seconds
            return state.tokenLedger.clockOffset
        }
    }

    /// Issues a v3 token on `subscribeKey`'s keyset from a grant-token body, as a signed grant
    /// would (for the admin API and in-process tests); the 400 problem when the body is refused.
    public func issueToken(subscribeKey: String, body: [UInt8]) -> Result<String, TokenIssueError> {
        let entry = entry(subscribeKey)
        guard let keyset = entry.keyset else { return .failure(TokenIssueError(message: "no Access Manager keyset for \(subscribeKey)")) }
        switch TokenGrantBody.parse(body) {
        case .failure(let problem):
            return .failure(TokenIssueError(message: problem.message + ": " + problem.detail))
        case .success(let grant):
            return .success(TokenIssuer.issue(grant, now: accessNow(entry), secretKey: keyset.secretKey).text)
        }
    }
}

extension PubNubService {
    /// Revokes `token` on `subscribeKey` outside a request (admin API, tests); `false` when it is
    /// not a token of that keyset.
    public func revokeToken(subscribeKey: String, token: String) -> Bool {
        let entry = entry(subscribeKey)
        guard let keyset = entry.keyset, let parsed = TokenIssuer.verified(token, secretKey: keyset.secretKey) else { return false }
        entry.keyspace.state.withLock { _ = $0.tokenLedger.revoked.insert(parsed.signature) }
        return true
    }
}

/// Why the service could not issue a token outside a request.
public struct TokenIssueError: Error, Sendable, Hashable {
    public var message: String
}
