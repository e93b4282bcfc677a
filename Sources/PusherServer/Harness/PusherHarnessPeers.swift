// SPDX-License-Identifier: MIT
import MockPusher
import Synchronization

/// Members a test harness plays inside the core without a socket: each peer is a connection id
/// the transport never uses (from 2^60 up), the messages the core sends it are kept, and it answers
/// the server's probes at once (a WebSocket ping is a pong, `pusher:ping` counts as activity), so
/// short activity timeouts never close it.
final class PusherHarnessPeers: Sendable {
    struct Peer: Sendable {
        let connection: PusherConnectionID
        var socketID: String?
        /// What the server sent the peer, oldest first (bounded by `maxMessages`).
        var received: [String] = []
    }

    /// The messages kept per peer (a peer lives for one test case).
    static let maxMessages = 1_000

    private struct State {
        var peers: [String: Peer] = [:]
        var names: [PusherConnectionID: String] = [:]
        var nextID: UInt64 = 1 << 60
    }

    private let state = Mutex(State())

    private static func key(_ appKey: String, _ name: String) -> String { appKey + "\n" + name }

    func peer(appKey: String, name: String) -> Peer? { state.withLock { $0.peers[Self.key(appKey, name)] } }

    /// The peer's connection id, made on first use; `isNew` when it was just made.
    func connection(appKey: String, name: String) -> (id: PusherConnectionID, isNew: Bool) {
        state.withLock { state in
            let key = Self.key(appKey, name)
            if let peer = state.peers[key] { return (peer.connection, false) }
            state.nextID += 1
            let id = PusherConnectionID(state.nextID)
            state.peers[key] = Peer(connection: id)
            state.names[id] = key
            return (id, true)
        }
    }

    func setSocketID(_ socketID: String?, appKey: String, name: String) {
        state.withLock { $0.peers[Self.key(appKey, name)]?.socketID = socketID }
    }

    /// Forgets the peer; its connection id.
    func remove(appKey: String, name: String) -> PusherConnectionID? {
        state.withLock { state in
            guard let peer = state.peers.removeValue(forKey: Self.key(appKey, name)) else { return nil }
            state.names[peer.connection] = nil
            return peer.connection
        }
    }

    /// Forgets every peer of the app; their connection ids.
    func removeAll(appKey: String) -> [PusherConnectionID] {
        state.withLock { state in
            let keys = state.peers.keys.filter { $0.hasPrefix(appKey + "\n") }
            return keys.compactMap { key in
                guard let peer = state.peers.removeValue(forKey: key) else { return nil }
                state.names[peer.connection] = nil
                return peer.connection
            }
        }
    }

    /// Takes an action addressed to a connection without a socket: a message for a peer is kept;
    /// the input the peer answers with (a pong to a probe, its end after a close), if any.
    /// Anything else (a closed connection's leftovers) is dropped.
    func deliver(_ action: PusherAction, now: PusherInstant) -> PusherInput? {
        switch action {
        case .send(let id, let text):
            let kept = state.withLock { state -> Bool in
                guard let key = state.names[id], state.peers[key] != nil else { return false }
                state.peers[key]?.received.append(text)
                if let count = state.peers[key]?.received.count, count > Self.maxMessages { state.peers[key]?.received.removeFirst() }
                return true
            }
            return kept && text.hasPrefix(#"{"event":"pusher:ping""#) ? .text(id, Self.pong, now: now) : nil
        case .webSocketPing(let id):
            return state.withLock { $0.names[id] != nil } ? .pong(id, now: now) : nil
        case .close(let id, _, _):
            let known = state.withLock { state -> Bool in
                guard let key = state.names.removeValue(forKey: id) else { return false }
                state.peers[key] = nil
                return true
            }
            return known ? .closed(id, now: now) : nil
        case .webhook:
            return nil
        }
    }

    static let pong = #"{"event":"pusher:pong","data":"{}"}"#
}
