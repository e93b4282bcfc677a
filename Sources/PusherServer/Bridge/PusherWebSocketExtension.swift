// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher

/// Claims WebSocket upgrades on `/app/KEY` (any key: an unknown one is refused by the core with
/// close 4001 after the upgrade, as the service does) and leaves every other request alone. Takes
/// the server's scheduler for the core's deadline timer.
struct PusherWebSocketExtension: SchedulingServerExtension {
    let service: PusherService

    func attach(scheduler: any Scheduler) { service.timer.attach(scheduler) }

    func webSocketUpgrade(for request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeDecision {
        guard let parsedKey = PusherPath.appKey(fromPath: request.rawPath) else { return .notMine }
        if let status = service.options.webSocketRefusalStatus { return .refuse(Self.refusal(status)) }
        let key = service.interner.appKey(parsedKey, core: service.core)
        // A query with broken percent-encoding reads as empty (the core then refuses: no protocol).
        let query = service.interner.query((request.queryItems ?? []).map { PusherQueryItem($0.name, $0.value) })
        let faults = service.faults.faults(forConnectionOn: key, query: query)
        // A proxy that blocks WebSockets: the upgrade refused, nothing journaled (no connection).
        if let refusal = faults.refusal(of: .websocket) { return .refuse(refusal) }
        return .accept(service.interner.handler(appKey: key, query: query, faults: faults) {
            PusherConnectionHandler(service: service, appKey: key, query: query, faults: faults)
        })
    }

    /// The answer of `serve --pusher-refuse-websocket STATUS`.
    static func refusal(_ status: Int) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array("websocket refused by the server's settings\n".utf8))
    }
}
