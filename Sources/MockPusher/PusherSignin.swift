// SPDX-License-Identifier: MIT
import HarnessJSON

/// The `pusher:error` messages of signin. UNVERIFIED texts (no recording): modelled on the live
/// subscription messages; all with `code: null`, the connection stays open.
enum PusherSigninError {
    static let incomplete = "Invalid signin: auth and user_data are required"
    static let authFormat = "Auth value for signin is invalid: should be of format 'key:signature'"
    static func invalidKey(_ key: String) -> String { "Invalid key in signin auth data: '\(key)'" }
    static func invalidSignature(expectedInput: String, got: String) -> String {
        "Invalid signature: Expected HMAC SHA256 hex digest of \(expectedInput), but got \(got)"
    }
    static let invalidUserData = "Invalid user_data: expected a JSON object with a non-empty string id"
    /// Code from the protocol doc (spec §3.2, §5); text UNVERIFIED.
    static let watchlistCode = 4302
    static func watchlistTooLong(_ limit: Int) -> String { "Watchlist limit exceeded: at most \(limit) user ids" }
}

extension PusherState {
    /// `pusher:signin {"auth","user_data"}`: `auth` signs `socket_id::user::user_data` (spec §4.2).
    mutating func signin(_ message: PusherClientMessage, from connection: PusherConnectionID, into actions: inout [PusherAction]) {
        guard let state = connections[connection], let app = apps[state.appID]?.app else { return }
        func refuse(_ text: String) { actions.append(.send(connection, PusherFrames.error(code: nil, message: text))) }
        let data = message.dataObject ?? [:]
        guard let auth = data["auth"]?.stringValue, let userData = data["user_data"]?.stringValue else { return refuse(PusherSigninError.incomplete) }
        let parts = auth.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return refuse(PusherSigninError.authFormat) }
        guard parts[0] == app.key else { return refuse(PusherSigninError.invalidKey(String(parts[0]))) }
        let input = PusherSignatures.userAuthInput(socketID: state.socketID, userData: userData)
        let expected = PusherSignatures.hmacSHA256Hex(secret: app.secret, message: input)
        guard PusherSignatures.constantTimeEqual(expected, String(parts[1])) else {
            return refuse(PusherSigninError.invalidSignature(expectedInput: input, got: String(parts[1])))
        }
        guard case .object(let user)? = try? JSONValue.parse(userData, maxDepth: 64), let id = user["id"]?.stringValue, !id.isEmpty else {
            return refuse(PusherSigninError.invalidUserData)
        }
        // UNVERIFIED: a second signin replaces the first (the connection leaves the first user's
        // online set and watchlist first).
        if let previous = state.signedIn { userSignedOut(connection, user: previous, appID: state.appID, into: &actions) }
        let watchlist = Self.watchlistIDs(user["watchlist"])
        let overLimit = (user["watchlist"]?.arrayValue?.count ?? 0) > app.options.watchlistLimit
        // UNVERIFIED: a watchlist over the limit is not watched at all (the signin itself succeeds).
        let signedIn = PusherSignedInUser(id: id, userData: userData, userInfo: user["user_info"], watchlist: overLimit ? [] : watchlist)
        connections[connection]?.signedIn = signedIn
        let success: JSONValue = ["user_data": .string(userData)]
        switch app.options.signinSuccessData {
        case .string: actions.append(.send(connection, PusherFrames.event("pusher:signin_success", data: success.jsonText)))
        case .object: actions.append(.send(connection, PusherFrames.event("pusher:signin_success", rawData: success.jsonText)))
        }
        if overLimit {
            let message = PusherSigninError.watchlistTooLong(app.options.watchlistLimit)
            actions.append(.send(connection, PusherFrames.error(code: PusherSigninError.watchlistCode, message: message)))
        }
        userSignedIn(connection, user: signedIn, appID: state.appID, into: &actions)
    }
}
