// SPDX-License-Identifier: MIT

/// The routing table of a ``ServerHost``: plain HTTP requests go to the first route whose path
/// matches (in order), then to `fallback`; requests asking for a WebSocket upgrade go to the first
/// upgrade module that claims them. Protocol modules contribute entries; the host composes them.
package struct HostRoutes: Sendable {
    /// Plain HTTP routes, tried in order.
    package var routes: [HostRoute] = []
    /// Modules asked, in order, whether they take a WebSocket upgrade request.
    package var upgrades: [any ServerExtension] = []
    /// Answers what no route matches (default: 404 plain text).
    package var fallback: any RequestHandler = NotFoundHandler()

    package init(routes: [HostRoute] = [], upgrades: [any ServerExtension] = [], fallback: any RequestHandler = NotFoundHandler()) {
        self.routes = routes
        self.upgrades = upgrades
        self.fallback = fallback
    }

    /// The path prefix where administrative routes live (``HostRoute/isAdministrative``).
    package static let adminPrefix = "/__admin/"

    /// The routes of `extensions` (their `httpPathPrefixes`) and their upgrades, in extension order;
    /// prefixes under `/__admin/` are administrative (answered only if `admission` lets the peer in).
    package static func extensionRoutes(
        _ extensions: [any ServerExtension], admission: @escaping HostRoute.Admission
    ) -> (administrative: [HostRoute], other: [HostRoute]) {
        var administrative: [HostRoute] = []
        var other: [HostRoute] = []
        for module in extensions {
            for prefix in module.httpPathPrefixes {
                if prefix.hasPrefix(adminPrefix) {
                    administrative.append(HostRoute(.prefix(prefix), handler: ExtensionHandler(module: module), admission: admission))
                } else {
                    other.append(HostRoute(.prefix(prefix), handler: ExtensionHandler(module: module)))
                }
            }
        }
        return (administrative, other)
    }

    /// The request handler this table stands for (plain HTTP requests).
    var handler: any RequestHandler { HostRouter(routes: routes, fallback: fallback) }

    /// The upgrade router, or nil when no module takes upgrades (then no request ever switches).
    var upgradeRouter: (any WebSocketUpgradeRouter)? { upgrades.isEmpty ? nil : ExtensionUpgradeRouter(extensions: upgrades) }
}

/// One entry of the routing table.
package struct HostRoute: Sendable {
    /// Decides whether the peer of a request may use a route: nil lets it in, a response refuses it.
    package typealias Admission = @Sendable (RequestContext) -> HTTPResponse?

    /// How a route matches the raw request path.
    package enum Match: Sendable, Hashable {
        /// The path is exactly this (e.g. `/__admin`).
        case exact(String)
        /// The path starts with this (e.g. `/__admin/`, `/apps/`).
        case prefix(String)

        func matches(_ path: String) -> Bool {
            switch self {
            case .exact(let text): path == text
            case .prefix(let text): path.hasPrefix(text)
            }
        }
    }

    package let match: Match
    package let handler: any RequestHandler
    /// Checked before `handler` sees the request; nil = every peer.
    package let admission: Admission?

    package init(_ match: Match, handler: any RequestHandler, admission: Admission? = nil) {
        self.match = match
        self.handler = handler
        self.admission = admission
    }
}

/// Sends each request to the first matching route, after its admission check; otherwise to `fallback`.
struct HostRouter: RequestHandler {
    let routes: [HostRoute]
    let fallback: any RequestHandler

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        let path = request.rawPath
        for route in routes where route.match.matches(path) {
            if let refusal = route.admission?(context) {
                responder.send(.respond(refusal))
            } else {
                route.handler.handle(request, context: context, responder: responder)
            }
            return
        }
        fallback.handle(request, context: context, responder: responder)
    }
}

/// An extension's `handle` as a route's handler.
struct ExtensionHandler: RequestHandler {
    let module: any ServerExtension

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        module.handle(request, context: context, responder: responder)
    }
}

/// `404 Not Found` in plain text: what a host answers where no module claims the path.
package struct NotFoundHandler: RequestHandler {
    package init() {}

    package func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        responder.send(.respond(HTTPResponse(status: 404, headers: ["Content-Type": "text/plain"], body: Array("Not Found\n".utf8))))
    }
}

/// The admission of administrative routes on a host without an admin API of its own: loopback
/// peers only unless `allowRemote` (403 in plain text otherwise).
package func loopbackAdmission(allowRemote: Bool) -> HostRoute.Admission {
    { context in
        guard allowRemote || context.peerIsLoopback else {
            return HTTPResponse(
                status: 403, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Array("administrative routes answer loopback peers only (\(context.peer) is not)\n".utf8))
        }
        return nil
    }
}
