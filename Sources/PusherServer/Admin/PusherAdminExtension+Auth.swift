// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessServerCore
import MockPusher

/// The harness's channel auth endpoint, as an app server would run it: `POST
/// /__admin/pusher/auth/KEY/USER` with the form `socket_id=…&channel_name=…` answers
/// `{"auth":…}` signed with the app's secret, plus `channel_data` for presence channels (member
/// `USER`, `user_info.name` = USER). The user `refused` gets 403, as an app refusing the user.
/// `private-encrypted-` channels also get `shared_secret` (``sharedSecret(channel:app:wrong:)``).
extension PusherAdminExtension {
    /// The user the endpoint refuses with 403.
    static let refusedUser = "refused"

    func authorize(_ request: HTTPRequest) -> HTTPResponse {
        let (key, app, user): (String, PusherApp, String)
        switch endpointTarget(request, prefix: "/__admin/pusher/auth/") {
        case .success(let target): (key, app, user) = target
        case .failure(let answer): return answer.response
        }
        var wrongSecret = false
        switch request.queryItems?.first(where: { $0.name == "shared_secret" })?.value {
        case nil: break
        case "wrong"?: wrongSecret = true
        case let other?: return Self.error(400, "shared_secret: expected \"wrong\" (or no parameter), got \"\(other)\"")
        }
        let form = Self.formFields(request.body)
        guard let socketID = form["socket_id"], let channel = form["channel_name"], !socketID.isEmpty, !channel.isEmpty else {
            return Self.error(400, "socket_id and channel_name: required (form-encoded)")
        }
        service.authorizations.signed(PusherAuthorizationRecord(socketID: socketID, channel: channel), appKey: key)
        // `?channel_data=none`: an app server relying on signin (presence members from user_data, spec §3.4).
        let omitChannelData = request.queryItems?.contains { $0.name == "channel_data" && $0.value == "none" } ?? false
        let channelData = channel.hasPrefix("presence-") && !omitChannelData ? Self.endpointChannelData(userID: user) : nil
        var body: [(String, JSONValue)] = [("auth", .string(PusherSignatures.channelAuth(app: app, socketID: socketID, channel: channel, channelData: channelData)))]
        if let channelData { body.append(("channel_data", .string(channelData))) }
        if channel.hasPrefix(Self.encryptedPrefix), let secret = Self.sharedSecret(channel: channel, app: app, wrong: wrongSecret) {
            body.append(("shared_secret", .string(secret)))
        }
        return Self.jsonAnswer(200, .object(JSONObject(body)))
    }

    static let encryptedPrefix = "private-encrypted-"

    /// An app server endpoint's answer that ends the request early (unknown path or key, a refused user).
    struct EndpointAnswer: Error {
        let response: HTTPResponse
    }

    /// The app and user of an endpoint path `PREFIX/KEY/USER` (both percent-decoded), or its answer:
    /// 404 for another path or an unknown key, 403 for the user ``refusedUser`` (journaled).
    func endpointTarget(_ request: HTTPRequest, prefix: String) -> Result<(key: String, app: PusherApp, user: String), EndpointAnswer> {
        let parts = request.rawPath.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .failure(EndpointAnswer(response: Self.error(404, "expected \(prefix)KEY/USER, got \(request.rawPath)")))
        }
        let key = PercentDecoding.decode(parts[0], plusAsSpace: false) ?? parts[0]
        guard let app = service.core.app(key: key) else { return .failure(EndpointAnswer(response: Self.error(404, "no Pusher app with key \"\(key)\""))) }
        let user = PercentDecoding.decode(parts[1], plusAsSpace: false) ?? parts[1]
        if user == Self.refusedUser {
            service.authorizations.refused(appKey: key)
            return .failure(EndpointAnswer(response: Self.jsonAnswer(403, .object([("error", "forbidden")]))))
        }
        return .success((key, app, user))
    }

    /// `base64(SHA256(channel ‖ master key))` (spec §4.3), or with `wrong` the secret of another
    /// channel name (for cases where the client must fail to decrypt). Nil when the app has no master
    /// key: the answer then has no `shared_secret`, and a client must fail the subscription
    /// (pusher-js: "No shared_secret key in auth payload"). Design choice: the official HTTP libraries
    /// raise instead (an app server answering 500); both end in a subscription error.
    static func sharedSecret(channel: String, app: PusherApp, wrong: Bool) -> String? {
        guard let key = app.options.encryptionMasterKey else { return nil }
        return PusherSignatures.sharedSecretBase64(channel: wrong ? channel + "-wrong" : channel, masterKey: key)
    }

    /// `channel_data` spaced as pusher-http-python's `json.dumps` writes it (the exact bytes are
    /// signed; a client must forward them unchanged).
    static func endpointChannelData(userID: String) -> String {
        let id = JSONValue.string(userID).jsonText
        return #"{"user_id": \#(id), "user_info": {"name": \#(id)}}"#
    }

    static func formFields(_ body: [UInt8]) -> [String: String] {
        var form: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let pieces = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = PercentDecoding.decode(pieces[0], plusAsSpace: true) else { continue }
            form[name] = pieces.count > 1 ? (PercentDecoding.decode(pieces[1], plusAsSpace: true) ?? "") : ""
        }
        return form
    }

    static func jsonAnswer(_ status: Int, _ body: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body.jsonBytes)
    }
}
