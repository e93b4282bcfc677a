// SPDX-License-Identifier: MIT

/// Why an app could not be added to a running core.
public enum PusherAppRegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another app already has this id (with other credentials or options).
    case idTaken(String)
    /// Another app already has this key.
    case keyTaken(String)

    public var description: String {
        switch self {
        case .idTaken(let id): "app id \"\(id)\" is already served with other credentials or options"
        case .keyTaken(let key): "app key \"\(key)\" is already served by another app"
        }
    }
}

extension PusherState {
    /// Adds `app`; false when the very same app is already served (nothing changes).
    mutating func register(_ app: PusherApp) throws(PusherAppRegistrationError) -> Bool {
        if let existing = apps[app.id]?.app {
            guard existing == app else { throw .idTaken(app.id) }
            return false
        }
        if appIDByKey[app.key] != nil { throw .keyTaken(app.key) }
        apps[app.id] = PusherAppState(app: app)
        appIDByKey[app.key] = app.id
        return true
    }
}

extension PusherCore {
    /// Serves `app` from now on (a harness adds an app per case); false when this exact app is
    /// already served. An id or key another app uses is an error.
    @discardableResult
    public func register(_ app: PusherApp) throws(PusherAppRegistrationError) -> Bool {
        try withState { state throws(PusherAppRegistrationError) in try state.register(app) }
    }

    /// Every app served, ordered by id.
    public var allApps: [PusherApp] { withState { $0.apps.values.map(\.app).sorted { $0.id < $1.id } } }
}
