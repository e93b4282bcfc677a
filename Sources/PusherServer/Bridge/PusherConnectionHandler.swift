// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher

/// Pusher WebSocket connections on one app key with one query and one list of faults: registers
/// each handle, journals what the client does and turns every transport event into a core input
/// stamped with the service's clock. It keeps nothing per connection (the handle says which one),
/// so connections alike share one handler (`PusherUpgradeInterner.handler`).
package final class PusherConnectionHandler: WebSocketHandler {
    package let service: PusherService
    package let appKey: String
    package let query: [PusherQueryItem]
    /// The faults the plan of `appKey` chose for the connection (their state lives in the registry).
    package let faults: [PusherAppliedFault]

    package init(service: PusherService, appKey: String, query: [PusherQueryItem], faults: PusherConnectionFaults) {
        self.service = service
        self.appKey = appKey
        self.query = query
        self.faults = faults.faults
    }

    private func id(_ handle: WebSocketHandle) -> PusherConnectionID { PusherConnectionID(handle.id) }

    package func webSocketDidOpen(_ connection: WebSocketHandle) {
        let id = id(connection)
        service.connections.add(connection, handler: self, faults: PusherConnectionFaults(faults))
        let now = service.now
        // Journaled before `connection_established` goes out: a reader who saw the client connected
        // finds the connection in the journal.
        service.receive(.connected(id, appKey: appKey, query: query, now: now), on: connection) {
            service.connections.setSocketID(service.core.socketIDValue(of: id), of: id)
            journal(connection, .connect(query: query, tls: connection.isTLS, faultRules: faults.map(\.rule)), at: now)
        }
    }

    package func webSocket(_ connection: WebSocketHandle, didReceiveText text: String) {
        let now = service.now
        journal(connection, .text(text), at: now)
        service.receive(.text(id(connection), text, now: now), on: connection)
    }

    package func webSocket(_ connection: WebSocketHandle, didReceiveBinary bytes: [UInt8]) {
        let now = service.now
        journal(connection, .binary(bytes: bytes.count), at: now)
        service.receive(.binary(id(connection), now: now), on: connection)
    }

    package func webSocket(_ connection: WebSocketHandle, didReceivePong payload: [UInt8]) {
        let now = service.now
        journal(connection, .webSocketPong, at: now)
        service.receive(.pong(id(connection), now: now), on: connection)
    }

    package func webSocket(_ connection: WebSocketHandle, didReceivePing payload: [UInt8]) {
        let now = service.now
        journal(connection, .webSocketPing, at: now)
        service.receive(.ping(id(connection), now: now), on: connection)
    }

    package func webSocketDidClose(_ connection: WebSocketHandle, code: WebSocketCloseCode, reason: String, clean: Bool) {
        let now = service.now
        let closingAt = service.connections.closingMoment(of: id(connection))
        journal(connection, .closed(code: code.rawValue, reason: reason, clean: clean, closingAt: closingAt), at: now)
        service.connections.remove(id(connection))
        service.receive(.closed(id(connection), now: now), on: connection)
    }

    /// Binary messages reach the core, which closes 1003 with its own reason.
    package var acceptsBinaryMessages: Bool { true }

    /// False while a fault withholds WebSocket pongs.
    package var answersPings: Bool { faults.isEmpty || PusherConnectionFaults(faults).answersWebSocketPings }

    private func journal(_ connection: WebSocketHandle, _ kind: PusherJournalEntry.Kind, at now: PusherInstant) {
        service.journal.record(appKey, at: now, connection: connection.id, socketID: service.connections.socketIDValue(of: id(connection)), kind)
    }
}
