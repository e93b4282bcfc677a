// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessServerCore
import MockPusher

/// The harness's user authentication endpoint, as an app server would run it (pusher-js
/// `userAuthentication.endpoint`): `POST /__admin/pusher/user-auth/KEY/USER` with the form
/// `socket_id=…` answers `{"auth":"KEY:HEX","user_data":"<JSON text>"}`, HEX signing
/// `socket_id::user::user_data` (spec §4.2). user_data is
/// `{"id":USER,"user_info":{"name":USER}[,"watchlist":[…]]}`. Query switches, so a case sets them
/// in the URL it gives the client:
/// - `watchlist=bob,carol`: the watchlist (absent: no `watchlist` member);
/// - `signature=bad`: a signature the server must refuse (the app server's mistake);
/// - the user `refused` gets 403, as an app refusing the user.
extension PusherAdminExtension {
    func authenticateUser(_ request: HTTPRequest, query: [QueryItem]) -> HTTPResponse {
        let (key, app, user): (String, PusherApp, String)
        switch endpointTarget(request, prefix: "/__admin/pusher/user-auth/") {
        case .success(let target): (key, app, user) = target
        case .failure(let answer): return answer.response
        }
        let signature = query.first { $0.name == "signature" }?.value
        guard signature == nil || signature == "bad" else { return Self.error(400, "signature: expected \"bad\" or nothing") }
        guard let socketID = Self.formFields(request.body)["socket_id"], !socketID.isEmpty else {
            return Self.error(400, "socket_id: required (form-encoded)")
        }
        let watchlist = query.first { $0.name == "watchlist" }.map { item in item.value.split(separator: ",").map(String.init) }
        let userData = Self.userData(userID: user, watchlist: watchlist)
        service.authorizations.signed(PusherAuthorizationRecord(socketID: socketID, channel: Self.userAuthenticationMarker + user), appKey: key)
        var auth = PusherSignatures.userAuth(app: app, socketID: socketID, userData: userData)
        if signature == "bad" { auth = app.key + ":" + String(repeating: "0", count: 64) }
        return Self.jsonAnswer(200, .object([("auth", .string(auth)), ("user_data", .string(userData))]))
    }

    /// How a user authentication appears among the auth endpoint's records: `#user:USER` as its
    /// channel (no channel name starts with `#user:`).
    public static let userAuthenticationMarker = "#user:"

    /// `{"id":USER,"user_info":{"name":USER}[,"watchlist":[…]]}`, compact.
    static func userData(userID: String, watchlist: [String]?) -> String {
        var members: [(String, JSONValue)] = [("id", .string(userID)), ("user_info", .object([("name", .string(userID))]))]
        if let watchlist { members.append(("watchlist", .array(watchlist.map { .string($0) }))) }
        return JSONValue.object(JSONObject(members)).jsonText
    }
}
