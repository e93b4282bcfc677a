// SPDX-License-Identifier: MIT
import Logging

/// Logs each request on one line when it is answered: method, target, outcome, duration.
struct RequestLog: RequestHandler {
    let next: any RequestHandler
    let logger: Logger
    let level: Logger.Level

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        // A relaying responder (no closure): batched answers stay batched with the log on.
        let observer = Observer(
            line: "\(request.method) \(request.target)", logger: logger, level: level,
            connection: context.connectionID, started: ContinuousClock.now)
        next.handle(request, context: context, responder: Responder(relayingTo: responder, observer: observer))
    }

    /// Writes the request's line once it is answered or abandoned.
    private struct Observer: ResponseObserver {
        let line: String
        let logger: Logger
        let level: Logger.Level
        let connection: UInt64
        let started: ContinuousClock.Instant

        func responded(_ action: ResponseAction) {
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            logger.log(
                level: level, "\(line) -> \(RequestLog.outcome(of: action)) (\(Int(milliseconds.rounded())) ms)",
                metadata: ["connection.id": "\(connection)"])
        }

        func cancelled() {
            logger.log(level: level, "\(line) -> client went away", metadata: ["connection.id": "\(connection)"])
        }
    }

    /// A short description of what the server did.
    static func outcome(of action: ResponseAction) -> String {
        switch action {
        case .respond(let response): "\(response.status)"
        case .raw(let bytes, let then): "raw \(bytes.count) bytes, then \(then.rawValue)"
        case .drip(let bytes, _, _, let then): "drip \(bytes.count) bytes, then \(then.rawValue)"
        case .delay(let delay, let then): "after \(delay): \(outcome(of: then))"
        case .close(let mode): "close (\(mode.rawValue))"
        case .hang: "hang"
        case .stream(let response, _): "\(response.status) (streamed)"
        }
    }
}
