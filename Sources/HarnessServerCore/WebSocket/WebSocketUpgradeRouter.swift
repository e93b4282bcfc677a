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
                switch WebSocketServerHandshake.validate(method: request.method, headers: request.headers) {
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
