// SPDX-License-Identifier: MIT

/// How the HTTP transport learns whether a request switches to WebSocket (generic; no paths here).
package protocol WebSocketUpgradeRouter: Sendable {
    /// nil: not an upgrade this server takes; the request is served as ordinary HTTP.
    func route(_ request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeOutcome?
}

/// What the connection does with a routed upgrade request.
package enum WebSocketUpgradeOutcome: Sendable {
    /// Write `responseHead` (the 101), then serve frames with `handler`.
    case switchProtocols(responseHead: [UInt8], handler: any WebSocketHandler)
    /// Answer `response` and close.
    case refuse(HTTPResponse)
}

/// Routes upgrade requests to the first extension that claims them and checks the handshake.
struct ExtensionUpgradeRouter: WebSocketUpgradeRouter {
    let extensions: [any ServerExtension]

    func route(_ request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeOutcome? {
        for candidate in extensions {
            switch candidate.webSocketUpgrade(for: request, context: context) {
            case .notMine:
                continue
            case .refuse(let response):
                return .refuse(response)
            case .accept(let handler):
                guard request.version == "HTTP/1.1" else {
                    return .refuse(candidate.handshakeRefusal(.badRequest("WebSocket upgrade requires HTTP/1.1, got \(request.version)")))
                }
                let fields = request.headers.fields.map { WebSocketHeaderField($0.name, $0.value) }
                switch WebSocketServerHandshake.validate(method: request.method, headers: fields) {
                case .success(let upgrade):
                    return .switchProtocols(responseHead: upgrade.responseHead(), handler: handler)
                case .failure(let refusal):
                    return .refuse(candidate.handshakeRefusal(refusal))
                }
            }
        }
        return nil
    }
}

/// Sends requests under an extension's path prefixes to it; everything else to `next`.
struct ExtensionHTTPRouter: RequestHandler {
    let extensions: [any ServerExtension]
    let next: any RequestHandler

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        for candidate in extensions where candidate.httpPathPrefixes.contains(where: { request.rawPath.hasPrefix($0) }) {
            candidate.handle(request, context: context, responder: responder)
            return
        }
        next.handle(request, context: context, responder: responder)
    }
}

extension HTTPRequest {
    /// Whether the request asks for a WebSocket upgrade (`Upgrade` lists `websocket`).
    var asksForWebSocket: Bool {
        headers.values(for: "upgrade").contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: " \t").lowercased() == "websocket" }
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var result = self
        while let first = result.first, set.contains(first) { result = result.dropFirst() }
        while let last = result.last, set.contains(last) { result = result.dropLast() }
        return result
    }
}
