// SPDX-License-Identifier: MIT
import Synchronization

/// The Pusher Channels protocol without I/O: inputs from the transport in, actions out. All state
/// is one value behind one mutex; each call is one short critical section, so the transport may call
/// from any thread. Time comes with each input; `nextDeadline` says when a `tick` is due.
public final class PusherCore: Sendable {
    private let state: Mutex<PusherState>

    /// `socketIDSeed` fixes the sequence of socket ids (tests predict them).
    public convenience init(apps: [PusherApp], socketIDSeed: UInt64 = 0x5075_7368_6572) {
        self.init(apps: apps, socketIDs: PusherSocketIDGenerator(seed: socketIDSeed))
    }

    /// A core whose socket ids come from `socketIDs`.
    public init(apps: [PusherApp], socketIDs: PusherSocketIDGenerator) {
        state = Mutex(PusherState(apps: apps, socketIDs: socketIDs))
    }

    /// Runs `body` in the core's critical section (extensions in other files use it).
    func withState<T, E: Error>(_ body: (inout PusherState) throws(E) -> T) throws(E) -> T {
        try state.withLock { state throws(E) in try body(&state) }
    }

    /// Handles one input; the actions to perform, in order.
    public func handle(_ input: PusherInput) -> [PusherAction] {
        state.withLock { state in
            var actions: [PusherAction] = []
            switch input {
            case let .connected(connection, appKey, query, now):
                state.connect(connection, appKey: appKey, query: query, now: now, into: &actions)
            case let .text(connection, text, now):
                state.receive(text, from: connection, now: now, into: &actions)
            case let .binary(connection, now):
                state.receiveBinary(from: connection, now: now, into: &actions)
            case let .pong(connection, now), let .ping(connection, now):
                state.noteActivity(connection, now: now)
            case let .closed(connection, _):
                state.forget(connection, into: &actions)
            case let .tick(now):
                state.tick(now: now, into: &actions)
            }
            return actions
        }
    }

    /// The earliest instant a `tick` may have work (possibly early: a tick with nothing due is harmless).
    public var nextDeadline: PusherInstant? { state.withLock { $0.timers.earliest } }

    /// The app with this id.
    public func app(id: String) -> PusherApp? { state.withLock { $0.apps[id]?.app } }
    /// The app with this key.
    public func app(key: String) -> PusherApp? { state.withLock { state in state.appIDByKey[key].flatMap { state.apps[$0]?.app } } }
    /// The socket id given to an open connection.
    public func socketID(of connection: PusherConnectionID) -> String? { state.withLock { $0.connections[connection]?.socketID } }
    /// The socket id given to an open connection, in its one-word form.
    package func socketIDValue(of connection: PusherConnectionID) -> PusherSocketID? {
        state.withLock { $0.connections[connection]?.socketIDValue }
    }
    /// Open connections (that completed connection_established).
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    // MARK: - The HTTP API's side

    /// Triggers `event` with `data` on `channels`, except to the connection with `excludeSocketID`.
    public func trigger(
        appID: String, event: String, data: String, channels: [String], excludeSocketID: String? = nil, now: PusherInstant
    ) throws(PusherQueryError) -> [PusherAction] {
        try state.withLock { state throws(PusherQueryError) in
            try state.trigger(appID: appID, event: event, data: data, channels: channels, excludeSocketID: excludeSocketID, now: now)
        }
    }

    /// Occupied channels, optionally filtered by name prefix; user counts need a `presence-` prefix.
    public func channels(appID: String, prefix: String? = nil, includeUserCount: Bool = false) throws(PusherQueryError) -> [PusherChannelSummary] {
        try state.withLock { state throws(PusherQueryError) in
            try state.channelList(appID: appID, prefix: prefix, includeUserCount: includeUserCount)
        }
    }

    /// One channel's occupancy, counts and cached event.
    public func channelInfo(appID: String, channel: String, now: PusherInstant) throws(PusherQueryError) -> PusherChannelInfo {
        try state.withLock { state throws(PusherQueryError) in try state.channelInfo(appID: appID, channel: channel, now: now) }
    }

    /// The user ids of a presence channel.
    public func users(appID: String, channel: String) throws(PusherQueryError) -> [String] {
        try state.withLock { state throws(PusherQueryError) in try state.presenceUsers(appID: appID, channel: channel) }
    }

    /// Closes the connections signed in as `userID`.
    public func terminateConnections(appID: String, userID: String) throws(PusherQueryError) -> [PusherAction] {
        try state.withLock { state throws(PusherQueryError) in try state.terminate(appID: appID, userID: userID) }
    }
}
