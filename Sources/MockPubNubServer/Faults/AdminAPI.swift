// SPDX-License-Identifier: MIT
import HarnessJSON
import Logging

/// The HTTP control API under `/__admin/` (docs/faults.md): plans, journals, reset, listener
/// faults, Access Manager keysets and grants, injected messages; `GET /__admin/` lists the routes.
///
/// Answers loopback peers only unless `allowRemote`; every answer is JSON. Errors have the shape
/// `{"error":true,"message":"...","status":400,"service":"Admin"}`.
package struct AdminAPI: RequestHandler {
    private let faults: FaultLayer
    let listenerControl: (any ListenerFaultControl)?
    private let allowRemote: Bool
    private let resetService: @Sendable () -> Void
    private let certificateAuthorityPEM: String?
    let serviceControl: AdminServiceControl?
    /// Where keyset registrations are logged (plan installs are logged by the fault layer).
    let logger: Logger?

    /// - Parameters:
    ///   - faults: the fault layer whose plans and journals the API controls.
    ///   - listeners: listener-fault control; without it the `/__admin/listeners` routes answer 501.
    ///   - allowRemote: answer peers that are not loopback (otherwise they get 403).
    ///   - resetService: resets the PubNub service's state on `POST /__admin/reset`.
    ///   - certificateAuthorityPEM: the test CA served by `GET /__admin/tls/ca` (404 without one).
    ///   - serviceControl: keysets, grants and injected messages; without it those routes answer 501.
    package init(
        faults: FaultLayer, listeners: (any ListenerFaultControl)? = nil, allowRemote: Bool = false,
        resetService: @escaping @Sendable () -> Void = {}, certificateAuthorityPEM: String? = nil,
        serviceControl: AdminServiceControl? = nil
    ) {
        self.serviceControl = serviceControl
        self.logger = faults.logger
        self.certificateAuthorityPEM = certificateAuthorityPEM
        self.faults = faults
        listenerControl = listeners
        self.allowRemote = allowRemote
        self.resetService = resetService
    }

    package func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        responder.send(.respond(response(for: request, context: context)))
    }

    /// The 403 for a peer the admin API does not answer (not loopback, remote access off), or nil.
    package func refusal(for context: RequestContext) -> HTTPResponse? {
        guard allowRemote || context.peerIsLoopback else {
            return Self.error(403, "the admin API answers loopback peers only (enable remote admin access to allow \(context.peer))")
        }
        return nil
    }

    /// The answer to one admin request.
    package func response(for request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        if let refusal = refusal(for: context) { return refusal }
        guard let segments = request.pathSegments, segments.first == "__admin" else {
            return Self.error(400, "invalid percent-encoding in the path")
        }
        let method = request.method
        let rest = Array(segments.dropFirst())
        switch (rest.first, rest.count) {
        case (nil, 0), ("", 1):
            return index(request)
        case ("health", 1):
            return health(request, plans: faults.installedPlans().count)
        case ("keysets", 1), ("grants", 2), ("messages", 2):
            return serviceRoute(rest, request: request)
        case ("objects", 2):
            return objectsRoute(key: rest[1], request: request)
        case ("files", 1), ("files", 2):
            return fileRoute(rest, request: request)
        case ("tokens", 2), ("access-clock", 2):
            return accessRoute(rest, request: request)
        case ("plans", 1):
            switch method {
            case "GET": return Self.ok(.object([("plans", .array(faults.installedPlans().map(\.json)))]))
            case "POST":
                // A plan file (one plan or an array; each under its subscribeKey or `*`), as `serve --plan`.
                do throws(FaultPlanError) {
                    let installed = try faults.installPlans(fromFile: request.body)
                    return Self.ok(.object([("installed", .array(installed.map {
                        .object([("subscribeKey", .string($0.subscribeKey)), ("seed", .int($0.seed))])
                    }))]))
                } catch {
                    return Self.error(400, error.description)
                }
            case "DELETE":
                faults.clearAllPlans()
                return Self.ok(.object([("cleared", .bool(true))]))
            default: return Self.methodNotAllowed(method, allowed: "GET, POST, DELETE")
            }
        case ("plans", 2):
            return plan(key: rest[1], request: request)
        case ("journal", 1):
            switch method {
            case "GET": return Self.ok(.object([("keys", .array(faults.journalKeys().map(JSONValue.string)))]))
            case "DELETE":
                faults.clearAllJournals()
                return Self.ok(.object([("cleared", .bool(true))]))
            default: return Self.methodNotAllowed(method, allowed: "GET, DELETE")
            }
        case ("journal", 2):
            return journal(key: rest[1], request: request)
        case ("reset", 1):
            guard method == "POST" else { return Self.methodNotAllowed(method, allowed: "POST") }
            faults.reset()
            resetService()
            return Self.ok(.object([("reset", .bool(true))]))
        case ("listeners", _), ("refused-port", 1):
            return listenerRoute(rest, request: request)
        case ("connections", 1):
            guard method == "GET" else { return Self.methodNotAllowed(method, allowed: "GET") }
            guard let counts = listenerControl?.connectionCounts() else {
                return Self.error(501, "connection counts are not available on this server")
            }
            return Self.ok(.object([
                ("open", .int(counts.open)), ("headerTimeouts", .int(counts.closed.headerTimeouts)),
                ("idleTimeouts", .int(counts.closed.idleTimeouts)), ("tlsOnPlainPort", .int(counts.closed.tlsOnPlainPort)),
            ]))
        case ("tls", 2) where rest[1] == "ca":
            guard method == "GET" else { return Self.methodNotAllowed(method, allowed: "GET") }
            guard let certificateAuthorityPEM else { return Self.error(404, "this server has no TLS certificate authority") }
            return Self.ok(.object([("caPEM", .string(certificateAuthorityPEM))]))
        default:
            return Self.error(404, "no admin route \(method) \(request.rawPath)")
        }
    }

    private func plan(key: String, request: HTTPRequest) -> HTTPResponse {
        switch request.method {
        case "GET":
            guard let installed = faults.installedPlan(for: key) else { return Self.error(404, "no plan for key \"\(key)\"") }
            return Self.ok(installed.json)
        case "PUT", "POST":
            do throws(FaultPlanError) {
                let plan = try FaultPlan.decode(json: request.body)
                if let named = plan.subscribeKey, named != key {
                    throw FaultPlanError(path: "subscribeKey", message: "\"\(named)\" does not match the path's key \"\(key)\"")
                }
                let seed = try faults.installPlan(plan, for: key)
                return Self.ok(.object([("subscribeKey", .string(key)), ("seed", .int(seed)), ("rules", .int(plan.rules.count))]))
            } catch {
                return Self.error(400, error.description)
            }
        case "DELETE":
            let cleared = faults.clearPlan(for: key)
            return Self.ok(.object([("subscribeKey", .string(key)), ("cleared", .bool(cleared))]))
        default:
            return Self.methodNotAllowed(request.method, allowed: "GET, PUT, POST, DELETE")
        }
    }

    private func journal(key: String, request: HTTPRequest) -> HTTPResponse {
        switch request.method {
        case "GET":
            var since: UInt64 = 0
            if let text = request.queryItems?["since"] {
                guard let value = UInt64(text) else { return Self.error(400, "since: expected a sequence number (an integer >= 0)") }
                since = value
            }
            let entries = faults.journal(for: key, since: since)
            return Self.ok(.object([
                ("subscribeKey", .string(key)),
                ("lastSequence", .int(entries.last?.sequence ?? since)),
                ("entries", .array(entries.map(\.json))),
            ]))
        case "DELETE":
            faults.clearJournal(for: key)
            return Self.ok(.object([("subscribeKey", .string(key)), ("cleared", .bool(true))]))
        default:
            return Self.methodNotAllowed(request.method, allowed: "GET, DELETE")
        }
    }

    // MARK: - Responses

    /// A 200 JSON answer.
    static func ok(_ json: JSONValue) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: json.jsonBytes)
    }

    /// An error answer in the admin shape.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: errorBody(status: status, message: message))
    }

    static func methodNotAllowed(_ method: String, allowed: String) -> HTTPResponse {
        var response = error(405, "method \(method) not allowed here (allowed: \(allowed))")
        response.headers.add("Allow", allowed)
        return response
    }

    /// `{"error":true,"message":"...","status":N,"service":"Admin"}`.
    static func errorBody(status: Int, message: String) -> [UInt8] {
        JSONValue.object([
            ("error", .bool(true)), ("message", .string(message)), ("status", .int(status)), ("service", .string("Admin")),
        ]).jsonBytes
    }
}
