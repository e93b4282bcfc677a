// SPDX-License-Identifier: MIT
import HarnessJSON

/// The signed-in user's side of the machine (pusher-js `user.ts`): after `signin()` every
/// established connection asks the user endpoint with its socket id, sends `pusher:signin`, and on
/// `pusher:signin_success` subscribes to `#server-to-user-ID` with an empty `auth`. A lost
/// connection forgets the user; the next connection signs in again.
struct PusherUserState: Sendable, Hashable {
    var signinRequested = false
    /// `#server-to-user-ID` once signin succeeded on the current connection.
    var userChannel: String?
}

extension PusherConnectionMachine {
    static let userChannelPrefix = "#server-to-user-"

    /// The app asked to sign in (once is enough; later connections repeat it).
    mutating func signin() -> [PusherClientAction] {
        guard !user.signinRequested else { return [] }
        user.signinRequested = true
        if case .connected(let socketID) = state { return [.authenticateUser(socketID: socketID)] }
        return []
    }

    /// After `connection_established`: signs in again when the app asked for it.
    func signinOnConnect(socketID: String) -> [PusherClientAction] {
        user.signinRequested ? [.authenticateUser(socketID: socketID)] : []
    }

    mutating func userAuthenticated(socketID: String, _ result: Result<PusherUserAuthentication, PusherAuthorizationError>) -> [PusherClientAction] {
        guard case .connected(let current) = state, current == socketID else { return [] }
        switch result {
        case .failure(let error): return [.emit(.signinFailed(error))]
        case .success(let answer):
            let data: JSONValue = .object([("auth", .string(answer.auth)), ("user_data", .string(answer.userData))])
            return [.send(JSONValue.object([("event", "pusher:signin"), ("data", data)]).jsonText)]
        }
    }

    /// `pusher:signin_success {"user_data"}` (data a string or an object, spec §3.2).
    mutating func signinSucceeded(_ message: PusherEventMessage) -> [PusherClientAction] {
        guard case .connected = state, let text = message.data?["user_data"]?.stringValue,
              let userData = try? JSONValue.parse(text), let id = userData["id"]?.stringValue, !id.isEmpty else { return [] }
        let channel = Self.userChannelPrefix + id
        user.userChannel = channel
        return [.emit(.signedIn(userID: id)), .send(PusherWire.subscribe(channel: channel, authorization: PusherChannelAuthorization(auth: "")))]
    }

    /// An event on the user's channel other than internal ones.
    func userChannelEvent(_ message: PusherEventMessage) -> [PusherClientAction] {
        guard let channel = user.userChannel, message.channel == channel,
              !message.name.hasPrefix("pusher:"), !message.name.hasPrefix("pusher_internal:") else { return [] }
        return [.emit(.userEvent(message))]
    }

    /// `pusher_internal:watchlist_events {"events":[{"name","user_ids"}]}`: one report per entry.
    func watchlistEvents(_ message: PusherEventMessage) -> [PusherClientAction] {
        (message.data?["events"]?.arrayValue ?? []).compactMap { entry in
            guard let name = entry["name"]?.stringValue else { return nil }
            return .emit(.watchlist(name: name, userIDs: (entry["user_ids"]?.arrayValue ?? []).compactMap(PusherWire.identifier)))
        }
    }
}
