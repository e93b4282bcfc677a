// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    /// Whether `fallback` answers preflights (`OPTIONS`) itself (a module that journals them or
    /// lets faults fail them); otherwise, with a ``CORSPolicy``, the table answers them for it.
    package var fallbackAnswersPreflight = false

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

    /// The request handler this table stands for (plain HTTP requests); with `cors`, preflights
    /// are answered by the policy after the route's admission check (see `fallbackAnswersPreflight`).
    var handler: any RequestHandler { handler(cors: nil) }

    /// ``handler`` answering preflights with `cors` (nil: as ``handler``).
    func handler(cors: CORSPolicy?) -> any RequestHandler {
        HostRouter(routes: routes, fallback: fallback, cors: cors, fallbackAnswersPreflight: fallbackAnswersPreflight)
    }

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
///
/// The routes' paths are kept as bytes and matched against the request path's bytes in place:
/// finding the route copies no ``HostRoute`` and builds no string (a non-ASCII path is
/// compared as strings, as before).
final class HostRouter: RequestHandler {
    /// The routes, in order.
    let routes: [HostRoute]
    let fallback: any RequestHandler
    /// Each route's handler and the fallback, opened once for the per-request call.
    private let routeCalls: [any OpenedRequestHandler]
    private let fallbackCall: any OpenedRequestHandler
    /// Each route's path (`routes[i]`'s exact path or prefix) as UTF-8 bytes, and whether it must match exactly.
    private let patterns: [(bytes: [UInt8], exact: Bool)]
    /// Whether every pattern is ASCII (else every request is matched as strings: a non-ASCII
    /// pattern can equal other bytes as a string).
    private let asciiPatterns: Bool
    /// Answers preflights (nil: they go to the routes like any request).
    private let cors: CORSPolicy?
    private let fallbackAnswersPreflight: Bool

    init(routes: [HostRoute], fallback: any RequestHandler, cors: CORSPolicy? = nil, fallbackAnswersPreflight: Bool = false) {
        self.routes = routes
        self.fallback = fallback
        self.cors = cors
        self.fallbackAnswersPreflight = fallbackAnswersPreflight
        routeCalls = routes.map { opened($0.handler) }
        fallbackCall = opened(fallback)
        patterns = routes.map { route in
            switch route.match {
            case .exact(let text): (Array(text.utf8), true)
            case .prefix(let text): (Array(text.utf8), false)
            }
        }
        asciiPatterns = patterns.allSatisfy { pattern in pattern.bytes.allSatisfy { $0 < 0x80 } }
    }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        guard let index = request.withRawPathBytes({ firstMatch($0) }) ?? stringMatch(request.rawPath) else {
            if !fallbackAnswersPreflight, CORSPolicy.isPreflight(request), let cors {
                responder.send(.respond(cors.preflight(request)))
                return
            }
            fallbackCall.handle(request, context: context, responder: responder)
            return
        }
        if let admission = routes[index].admission, let refusal = admission(context) {
            responder.send(.respond(refusal))
        } else if CORSPolicy.isPreflight(request), let cors {
            responder.send(.respond(cors.preflight(request)))
        } else {
            routeCalls[index].handle(request, context: context, responder: responder)
        }
    }

    /// The index of the first route matching `path` (its bytes) when the path is ASCII, as
    /// ``HostRoute/Match/matches(_:)`` decides on strings (for ASCII text, byte-wise equality and
    /// prefix are `String`'s, CR LF aside, which no path holds); `nil` when none matches or the path is not ASCII.
    private func firstMatch(_ path: UnsafeBufferPointer<UInt8>) -> Int?? {
        guard asciiPatterns, HTTPRequest.isASCII(path) else { return nil }
        return patterns.withUnsafeBufferPointer { patterns -> Int?? in
            for index in patterns.indices {
                let matched = patterns[index].bytes.withUnsafeBufferPointer { pattern -> Bool in
                    if patterns[index].exact ? pattern.count != path.count : pattern.count > path.count { return false }
                    guard let wanted = pattern.baseAddress, let given = path.baseAddress else { return true }
                    return memcmp(given, wanted, pattern.count) == 0
                }
                if matched { return .some(index) }
            }
            return .some(nil)
        }
    }

    /// The index of the first route matching `path`, compared as strings (a non-ASCII path).
    private func stringMatch(_ path: String) -> Int? {
        routes.firstIndex { $0.match.matches(path) }
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
