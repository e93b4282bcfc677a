// SPDX-License-Identifier: MIT
import HarnessJSON

/// Who is online in one app and who watches whom (pusher-js `watchlist.ts`, the watchlist doc): a
/// user is online while at least one connection is signed in as that user; a connection watches
/// the ids of its signin's `watchlist`.
struct PusherUserDirectory {
    /// Signed-in connections per user id (a user is online while the set is non-empty).
    var online: [String: Set<PusherConnectionID>] = [:]
    /// Watching connections per watched user id.
    var watchers: [String: Set<PusherConnectionID>] = [:]
}

/// What a signin's watchlist makes the server send at once. UNVERIFIED (spec §10): the watchlist
/// doc says a user "will receive events indicating the current online status of each user in the
/// watchlist" once authenticated, without showing the frame.
public enum PusherWatchlistInitialStatus: Sendable, Hashable {
    /// One `watchlist_events` with an `online` entry for the watched ids online and an `offline`
    /// entry for the others (each only when non-empty); nothing for an empty watchlist.
    case onlineAndOffline
    /// Only the `online` entry (nothing when no watched id is online).
    case onlineOnly
}

enum PusherWatchlistFrames {
    /// `{"event":"pusher_internal:watchlist_events","data":"{\"events\":[{\"name\":…,\"user_ids\":[…]}]}"}`
    /// (no channel; data double-encoded like every server-generated event).
    static func events(_ entries: [(name: String, userIDs: [String])]) -> String {
        let events = entries.map { entry -> JSONValue in
            .object([("name", .string(entry.name)), ("user_ids", .array(entry.userIDs.map { .string($0) }))])
        }
        return PusherFrames.event("pusher_internal:watchlist_events", data: JSONValue.object([("events", .array(events))]).jsonText)
    }
}

extension PusherState {
    /// The ids of a signin's `watchlist` (strings; numbers as their text, as presence ids).
    static func watchlistIDs(_ value: JSONValue?) -> [String] {
        var seen = Set<String>()
        return (value?.arrayValue ?? []).compactMap { item -> String? in
            switch item {
            case .string(let text) where !text.isEmpty: text
            case .number(let text): text
            default: nil
            }
        }.filter { seen.insert($0).inserted }
    }

    /// `connection` completed signin as `user`: it becomes a watcher of its watchlist and gets the
    /// current status; when the user was offline, its watchers hear `online`.
    mutating func userSignedIn(_ connection: PusherConnectionID, user: PusherSignedInUser, appID: String, into actions: inout [PusherAction]) {
        guard var directory = apps[appID]?.users else { return }
        apps[appID]?.users = PusherUserDirectory()
        defer { apps[appID]?.users = directory }
        let cameOnline = directory.online[user.id]?.isEmpty ?? true
        directory.online[user.id, default: []].insert(connection)
        for watched in user.watchlist { directory.watchers[watched, default: []].insert(connection) }
        if !user.watchlist.isEmpty {
            let online = user.watchlist.filter { !(directory.online[$0]?.isEmpty ?? true) }
            let offline = user.watchlist.filter { directory.online[$0]?.isEmpty ?? true }
            var entries: [(name: String, userIDs: [String])] = []
            if !online.isEmpty { entries.append(("online", online)) }
            if !offline.isEmpty, apps[appID]?.app.options.watchlistInitialStatus == .onlineAndOffline { entries.append(("offline", offline)) }
            if !entries.isEmpty { actions.append(.send(connection, PusherWatchlistFrames.events(entries))) }
        }
        if cameOnline { notifyWatchers(of: user.id, name: "online", in: directory, except: connection, into: &actions) }
    }

    /// `connection`, signed in as `user`, ended or signed in again: it stops watching; when it was
    /// the user's last connection, the user's watchers hear `offline`.
    mutating func userSignedOut(_ connection: PusherConnectionID, user: PusherSignedInUser, appID: String, into actions: inout [PusherAction]) {
        guard var directory = apps[appID]?.users else { return }
        apps[appID]?.users = PusherUserDirectory()
        defer { apps[appID]?.users = directory }
        for watched in user.watchlist {
            directory.watchers[watched]?.remove(connection)
            if directory.watchers[watched]?.isEmpty == true { directory.watchers[watched] = nil }
        }
        directory.online[user.id]?.remove(connection)
        guard directory.online[user.id]?.isEmpty ?? false else { return }
        directory.online[user.id] = nil
        notifyWatchers(of: user.id, name: "offline", in: directory, except: connection, into: &actions)
    }

    private func notifyWatchers(of userID: String, name: String, in directory: PusherUserDirectory, except: PusherConnectionID,
                                into actions: inout [PusherAction]) {
        guard let watchers = directory.watchers[userID] else { return }
        let frame = PusherWatchlistFrames.events([(name, [userID])])
        for watcher in watchers.sorted() where watcher != except { actions.append(.send(watcher, frame)) }
    }

    /// Whether `userID` has a signed-in connection in the app.
    func isOnline(_ userID: String, appID: String) -> Bool { !(apps[appID]?.users.online[userID]?.isEmpty ?? true) }
}
