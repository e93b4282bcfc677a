// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher
import Synchronization

/// The open Pusher connections by id, each with its faults. A connection is added when its
/// WebSocket opens and removed when the transport reports it closed (exactly once per connection),
/// so nothing outlives its socket. An entry is held per connection, so it is kept small (three
/// words): the app key is the (shared) handler's, the socket id is one word, and the fault state of
/// the few connections with faults lives beside it, not in every entry.
final class PusherConnectionRegistry: Sendable {
    private struct Entry {
        let handle: WebSocketHandle
        let handler: PusherConnectionHandler
        /// `PusherSocketID.packed`; 0 (no generated id) until the core gave one.
        var socketID: UInt64 = 0
    }

    private struct Table {
        var entries: [PusherConnectionID: Entry] = [:]
        /// Connections with at least one fault only.
        var faults: [PusherConnectionID: PusherConnectionFaults] = [:]
        /// Connections the server is closing: when it sent its close frame.
        var closing: [PusherConnectionID: PusherInstant] = [:]
    }

    private let table = Mutex(Table())

    func add(_ handle: WebSocketHandle, handler: PusherConnectionHandler, faults: PusherConnectionFaults) {
        table.withLock { table in
            let id = PusherConnectionID(handle.id)
            table.entries[id] = Entry(handle: handle, handler: handler)
            table.faults[id] = faults.isEmpty ? nil : faults
        }
    }

    /// The open connections on `/app/KEY` for `appKey`, oldest first.
    func handles(appKey: String) -> [WebSocketHandle] {
        table.withLock { table in table.entries.filter { $0.value.handler.appKey == appKey }.sorted { $0.key < $1.key }.map(\.value.handle) }
    }

    /// Forgets the connection; the socket id it had.
    @discardableResult
    func remove(_ id: PusherConnectionID) -> String? {
        table.withLock { table in
            table.faults[id] = nil
            table.closing[id] = nil
            return table.entries.removeValue(forKey: id).flatMap { Self.text($0.socketID) }
        }
    }

    /// Notes that the server sent its close frame on the connection at `now` (the first time counts).
    func noteClosing(_ id: PusherConnectionID, at now: PusherInstant) {
        table.withLock { table in
            if table.entries[id] != nil, table.closing[id] == nil { table.closing[id] = now }
        }
    }

    /// When the server sent its close frame on the connection; nil when it has not.
    func closingMoment(of id: PusherConnectionID) -> PusherInstant? {
        table.withLock { $0.closing[id] }
    }

    func setSocketID(_ socketID: PusherSocketID?, of id: PusherConnectionID) {
        table.withLock { $0.entries[id]?.socketID = socketID?.packed ?? 0 }
    }

    func socketID(of id: PusherConnectionID) -> String? { socketIDValue(of: id)?.description }

    /// The socket id in its one-word form.
    func socketIDValue(of id: PusherConnectionID) -> PusherSocketID? {
        table.withLock { table in table.entries[id].flatMap { $0.socketID == 0 ? nil : PusherSocketID(packed: $0.socketID) } }
    }

    private static func text(_ packed: UInt64) -> String? { packed == 0 ? nil : PusherSocketID(packed: packed).description }

    /// The connection's handle and what its faults make of `action` (nil when it is gone).
    func steps(for action: PusherAction, to id: PusherConnectionID) -> (WebSocketHandle, [PusherWireStep])? {
        table.withLock { table in
            guard let handle = table.entries[id]?.handle else { return nil }
            guard let index = table.faults.index(forKey: id) else {
                var none = PusherConnectionFaults()
                return (handle, none.steps(for: action))
            }
            // In place: the fault state is neither copied out nor hashed again.
            return (handle, table.faults.values[index].steps(for: action))
        }
    }

    /// The connection's handle when it has no faults, so that its messages go out unchanged
    /// (`steps` would make each one `.text` of itself); nil when it has faults or is gone.
    func unfaultedHandle(_ id: PusherConnectionID) -> WebSocketHandle? {
        table.withLock { table in table.faults[id] == nil ? table.entries[id]?.handle : nil }
    }

    func handle(_ id: PusherConnectionID) -> WebSocketHandle? {
        table.withLock { $0.entries[id]?.handle }
    }

    var count: Int { table.withLock { $0.entries.count } }

    /// Any open connection's handle (its event loop runs timers that belong to no connection).
    var any: WebSocketHandle? { table.withLock { $0.entries.values.first?.handle } }
}
