// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher

/// One Pusher WebSocket connection: registers its handle, journals what the client does and turns
/// every transport event into a core input stamped with the service's clock.
struct PusherConnectionHandler: WebSocketHandler {
    let service: PusherService
    let appKey: String
    let query: [PusherQueryItem]
    /// The faults the plan of `appKey` chose for this connection (their state lives in the registry;
    /// the list alone keeps this handler, held once per connection, small).
    let faults: [PusherAppliedFault]

    init(service: PusherService, appKey: String, query: [PusherQueryItem], faults: PusherConnectionFaults) {
        self.service = service
        self.appKey = appKey
        self.query = query
        self.faults = faults.faults
    }

    private func id(_ handle: WebSocketHandle) -> PusherConnectionID { PusherConnectionID(handle.id) }

    func webSocketDidOpen(_ connection: WebSocketHandle) {
        let id = id(connection)
        service.connections.add(connection, appKey: appKey, faults: PusherConnectionFaults(faults))
        let now = service.now
        // Journaled before `connection_established` goes out: a reader who saw the client connected
        // finds the connection in the journal.
        service.receive(.connected(id, appKey: appKey, query: query, now: now), on: connection) {
            service.connections.setSocketID(service.core.socketID(of: id), of: id)
            journal(connection, .connect(query: query, tls: connection.isTLS, faultRules: faults.map(\.rule)), at: now)
        }
    }

    func webSocket(_ connection: WebSocketHandle, didReceiveText text: String) {
        let now = service.now
        journal(connection, .text(text), at: now)
        service.receive(.text(id(connection), text, now: now), on: connection)
    }

    func webSocket(_ connection: WebSocketHandle, didReceiveBinary bytes: [UInt8]) {
        let now = service.now
        journal(connection, .binary(bytes: bytes.count), at: now)
        service.receive(.binary(id(connection), now: now), on: connection)
    }

    func webSocket(_ connection: WebSocketHandle, didReceivePong payload: [UInt8]) {
        let now = service.now
        journal(connection, .webSocketPong, at: now)
        service.receive(.pong(id(connection), now: now), on: connection)
    }

    func webSocket(_ connection: WebSocketHandle, didReceivePing payload: [UInt8]) {
        let now = service.now
        journal(connection, .webSocketPing, at: now)
        service.receive(.ping(id(connection), now: now), on: connection)
    }

    func webSocketDidClose(_ connection: WebSocketHandle, code: WebSocketCloseCode, reason: String, clean: Bool) {
        let now = service.now
        journal(connection, .closed(code: code.rawValue, reason: reason, clean: clean), at: now)
        service.connections.remove(id(connection))
        service.receive(.closed(id(connection), now: now), on: connection)
    }

    /// Binary messages reach the core, which closes 1003 with its own reason.
    var acceptsBinaryMessages: Bool { true }

    /// False while a fault withholds WebSocket pongs.
    var answersPings: Bool { faults.isEmpty || PusherConnectionFaults(faults).answersWebSocketPings }

    private func journal(_ connection: WebSocketHandle, _ kind: PusherJournalEntry.Kind, at now: PusherInstant) {
        service.journal.record(appKey, at: now, connection: connection.id, socketID: service.connections.socketID(of: id(connection)), kind)
    }
}
