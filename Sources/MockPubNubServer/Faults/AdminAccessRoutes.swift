// SPDX-License-Identifier: MIT

extension AdminAPI {
    /// `POST /__admin/tokens/{key}` (a grant-token body → `{"token":…}`; `?revoke=TOKEN` revokes) and
    /// `POST /__admin/access-clock/{key}?advance=SECONDS` (→ `{"offsetSeconds":…}`).
    func accessRoute(_ rest: [String], request: HTTPRequest) -> HTTPResponse {
        guard let control = serviceControl else { return Self.error(501, "service control is not available in this server") }
        guard request.method == "POST" else { return Self.methodNotAllowed(request.method, allowed: "POST") }
        let subscribeKey = rest[1]
        if rest[0] == "tokens", let token = request.queryItems?["revoke"] {
            guard control.revokeToken(subscribeKey, token) else { return Self.error(400, "not a token of \(subscribeKey)") }
            return Self.ok(.object([("subscribeKey", .string(subscribeKey)), ("revoked", .bool(true))]))
        }
        if rest[0] == "tokens" {
            switch control.issueToken(subscribeKey, request.body) {
            case .success(let token): return Self.ok(.object([("subscribeKey", .string(subscribeKey)), ("token", .string(token))]))
            case .failure(let error): return Self.error(400, error.message)
            }
        }
        guard let text = request.queryItems?["advance"], let seconds = Int64(text), (0...31_536_000).contains(seconds) else {
            return Self.error(400, "advance: expected whole seconds 0...31536000")
        }
        let offset = control.advanceAccessClock(subscribeKey, seconds)
        return Self.ok(.object([("subscribeKey", .string(subscribeKey)), ("offsetSeconds", .int(offset))]))
    }
}
