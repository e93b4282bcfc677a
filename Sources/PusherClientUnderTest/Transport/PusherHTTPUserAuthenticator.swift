// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessJSON

/// What a user authentication endpoint answers (pusher-js `user_authenticator.ts`): `auth`
/// (`key:signature` over `socket_id::user::user_data`) and the exact `user_data` text to forward.
public struct PusherUserAuthentication: Sendable, Hashable {
    public var auth: String
    public var userData: String
    public init(auth: String, userData: String) {
        self.auth = auth
        self.userData = userData
    }
}

extension PusherHTTPAuthorizer {
    /// Blocking: a form POST of `socket_id` (as pusher-js sends it) to the user endpoint.
    func authenticateUserBlocking(socketID: String) -> Result<PusherUserAuthentication, PusherAuthorizationError> {
        let request = HTTPClientRequest(method: "POST", target: endpoint.target, body: Array("socket_id=\(FormEncoding.encode(socketID))".utf8),
                                        contentType: "application/x-www-form-urlencoded")
        switch client.performBlocking(request, timeout: timeout) {
        case .failure(let error): return .failure(.transport(error.description))
        case .success(let response): return Self.readUser(statusCode: response.statusCode, body: response.body)
        }
    }

    /// Reads `{"auth": String, "user_data": String}` from a 200 or 201 answer.
    static func readUser(statusCode: Int, body: [UInt8]) -> Result<PusherUserAuthentication, PusherAuthorizationError> {
        let text = String(decoding: body, as: UTF8.self)
        guard statusCode == 200 || statusCode == 201 else { return .failure(.status(statusCode, body: text)) }
        guard let value = try? JSONValue.parse(body), value.objectValue != nil else { return .failure(.malformedResponse("not a JSON object: \(text.prefix(200))")) }
        guard let auth = value["auth"]?.stringValue else { return .failure(.malformedResponse("no \"auth\" string")) }
        guard let userData = value["user_data"]?.stringValue else { return .failure(.malformedResponse("no \"user_data\" string")) }
        return .success(PusherUserAuthentication(auth: auth, userData: userData))
    }
}
