// SPDX-License-Identifier: MIT

/// The HTTP API's endpoints (spec §6.1), matched on the method and the decoded path segments.
public enum PusherAPIRoute: Sendable, Hashable {
    case events(appID: String)
    case batchEvents(appID: String)
    case channels(appID: String)
    case channel(appID: String, name: String)
    case users(appID: String, channel: String)
    case terminate(appID: String, userID: String)
    /// `POST /users/USER/terminate_connections`, without `/apps/ID` (pusher-http-python 3.3.x); the app
    /// is the one of `auth_key`. Whether the service takes this form is UNVERIFIED (spec §6.2).
    case terminateShort(userID: String)

    /// Which form of the terminate path a request used (journaled).
    public enum TerminatePathForm: String, Sendable, Hashable {
        case appScoped = "/apps/ID/users/USER/terminate_connections"
        case short = "/users/USER/terminate_connections"
    }

    /// The endpoint of `method` on these decoded segments, or nil (404).
    public static func match(method: String, segments: [String]) -> PusherAPIRoute? {
        switch (method, segments.count) {
        case ("POST", 3) where segments[0] == "users" && segments[2] == "terminate_connections":
            return .terminateShort(userID: segments[1])
        default:
            break
        }
        guard segments.count >= 3, segments[0] == "apps", !segments[1].isEmpty else { return nil }
        let appID = segments[1]
        switch (method, Array(segments.dropFirst(2))) {
        case ("POST", ["events"]): return .events(appID: appID)
        case ("POST", ["batch_events"]): return .batchEvents(appID: appID)
        case ("GET", ["channels"]): return .channels(appID: appID)
        case ("GET", let rest) where rest.count == 2 && rest[0] == "channels" && !rest[1].isEmpty:
            return .channel(appID: appID, name: rest[1])
        case ("GET", let rest) where rest.count == 3 && rest[0] == "channels" && rest[2] == "users" && !rest[1].isEmpty:
            return .users(appID: appID, channel: rest[1])
        case ("POST", let rest) where rest.count == 3 && rest[0] == "users" && rest[2] == "terminate_connections" && !rest[1].isEmpty:
            return .terminate(appID: appID, userID: rest[1])
        default:
            return nil
        }
    }

    /// The query parameters this endpoint takes besides the authentication ones.
    var ownParameters: Set<String> {
        switch self {
        case .channels: ["filter_by_prefix", "info"]
        case .channel: ["info"]
        case .events, .batchEvents, .users, .terminate, .terminateShort: []
        }
    }

    var terminateForm: TerminatePathForm? {
        switch self {
        case .terminate: .appScoped
        case .terminateShort: .short
        default: nil
        }
    }
}
