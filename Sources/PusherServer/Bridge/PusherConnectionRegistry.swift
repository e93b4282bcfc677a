// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher
import Synchronization

/// The open Pusher connections by id, each with its faults. A connection is added when its
/// WebSocket opens and removed when the transport reports it closed (exactly once per connection),
/// so nothing outlives its socket.
final class PusherConnectionRegistry: Sendable {
    private struct Entry {
        let handle: WebSocketHandle
        let appKey: String
        var faults: PusherConnectionFaults
        var socketID: String?
    }

    private let entries = Mutex<[PusherConnectionID: Entry]>([:])

    func add(_ handle: WebSocketHandle, appKey: String, faults: PusherConnectionFaults) {
        entries.withLock { $0[PusherConnectionID(handle.id)] = Entry(handle: handle, appKey: appKey, faults: faults) }
    }

    /// The open connections on `/app/KEY` for `appKey`, oldest first.
    func handles(appKey: String) -> [WebSocketHandle] {
        entries.withLock { entries in entries.filter { $0.value.appKey == appKey }.sorted { $0.key < $1.key }.map(\.value.handle) }
    }

    /// Forgets the connection; the socket id it had.
    @discardableResult
    func remove(_ id: PusherConnectionID) -> String? {
        entries.withLock { $0.removeValue(forKey: id)?.socketID }
    }

    func setSocketID(_ socketID: String?, of id: PusherConnectionID) {
        entries.withLock { $0[id]?.socketID = socketID }
    }

    func socketID(of id: PusherConnectionID) -> String? { entries.withLock { $0[id]?.socketID } }

    /// The connection's handle and what its faults make of `action` (nil when it is gone).
    func steps(for action: PusherAction, to id: PusherConnectionID) -> (WebSocketHandle, [PusherWireStep])? {
        entries.withLock { entries in
            guard let index = entries.index(forKey: id) else { return nil }
            // In place: the entry (its fault state) is neither copied out nor hashed again.
            let steps = entries.values[index].faults.steps(for: action)
            return (entries.values[index].handle, steps)
        }
    }

    /// The connection's handle when it has no faults, so that its messages go out unchanged
    /// (`steps` would make each one `.text` of itself); nil when it has faults or is gone.
    func unfaultedHandle(_ id: PusherConnectionID) -> WebSocketHandle? {
        entries.withLock { entries in
            guard let index = entries.index(forKey: id), entries.values[index].faults.isEmpty else { return nil }
            return entries.values[index].handle
        }
    }

    func handle(_ id: PusherConnectionID) -> WebSocketHandle? {
        entries.withLock { $0[id]?.handle }
    }

    var count: Int { entries.withLock { $0.count } }

    /// Any open connection's handle (its event loop runs timers that belong to no connection).
    var any: WebSocketHandle? { entries.withLock { $0.values.first?.handle } }
}
