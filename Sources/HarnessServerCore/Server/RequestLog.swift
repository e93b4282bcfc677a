// SPDX-License-Identifier: MIT
import Logging

/// Logs each request on one line when it is answered: method, target, outcome, duration.
struct RequestLog: RequestHandler {
    let next: any RequestHandler
    let logger: Logger
    let level: Logger.Level

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        let started = ContinuousClock.now
        let line = "\(request.method) \(request.target)"
        let logger = logger
        let level = level
        let connection = context.connectionID
        let logged = Responder { action in
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            logger.log(
                level: level, "\(line) -> \(Self.outcome(of: action)) (\(Int(milliseconds.rounded())) ms)",
                metadata: ["connection.id": "\(connection)"])
            responder.send(action)
        }
        responder.onCancel {
            logger.log(level: level, "\(line) -> client went away", metadata: ["connection.id": "\(connection)"])
            logged.cancel()
        }
        next.handle(request, context: context, responder: logged)
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
        }
    }
}
