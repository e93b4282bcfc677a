// SPDX-License-Identifier: MIT

/// A request path of the HTTP fallback transports (pure):
/// `/pusher/app/KEY/SERVER/SESSION/xhr_streaming|xhr|xhr_send`.
public struct PusherHTTPPath: Sendable, Hashable {
    /// What the request does.
    public enum Kind: String, Sendable, Hashable {
        /// Opens (or resumes) the session's streaming answer.
        case streaming = "xhr_streaming"
        /// One long-poll for the session's frames.
        case polling = "xhr"
        /// Client messages into the session.
        case send = "xhr_send"
    }

    /// The base of every path (the client's default `httpPath` and `/app/`).
    public static let prefix = "/pusher/app/"

    public var appKey: String
    /// `SERVER/SESSION`: the client's session, unique per app key.
    public var session: String
    public var kind: Kind

    public init(appKey: String, session: String, kind: Kind) {
        self.appKey = appKey
        self.session = session
        self.kind = kind
    }

    /// Why a path under `prefix` is not one of the transports'.
    public enum Problem: Error, Sendable, Hashable {
        /// Not `KEY/SERVER/SESSION/KIND`.
        case shape
        /// The last part names no transport.
        case unknownKind(String)
    }

    /// The parts of `path` (query already split off); the problem when it is not a transport path.
    public static func parse(_ path: String) -> Result<PusherHTTPPath, Problem> {
        guard path.hasPrefix(prefix) else { return .failure(.shape) }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && !$0.contains(".") }) else { return .failure(.shape) }
        guard let kind = Kind(rawValue: String(parts[3])) else { return .failure(.unknownKind(String(parts[3]))) }
        return .success(PusherHTTPPath(appKey: String(parts[0]), session: parts[1] + "/" + parts[2], kind: kind))
    }
}
