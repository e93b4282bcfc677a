// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessServerCore

/// The Pusher part of the admin API, under `/__admin/pusher/` (same peers as the rest of `/__admin/`):
///
/// - `GET|PUT|POST|DELETE /__admin/pusher/plan?app_key=KEY`: the key's fault plan
/// - `GET|DELETE /__admin/pusher/journal?app_key=KEY[&since=N]`: what the key's clients sent
/// - `GET /__admin/pusher/connections`: open Pusher connections
/// - `POST /__admin/pusher/reset`: clears every Pusher plan and journal
/// - the harness routes (apps, peers, server-side closes, the auth endpoint): `PusherAdminExtension+Harness.swift`
/// - `GET /__admin/pusher/`: this list
struct PusherAdminExtension: ServerExtension {
    static let routes: [(method: String, path: String, description: String)] = [
        ("GET, PUT, POST, DELETE", "/__admin/pusher/plan?app_key=KEY", "the key's Pusher fault plan (docs/fault-plans.md)"),
        ("GET, DELETE", "/__admin/pusher/journal?app_key=KEY[&since=N]", "what the key's clients sent"),
        ("GET", "/__admin/pusher/connections", "open Pusher connections"),
        ("POST", "/__admin/pusher/reset", "clears every Pusher plan and journal"),
    ] + harnessRoutes

    let service: PusherService

    var httpPathPrefixes: [String] { ["/__admin/pusher/"] }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        responder.send(.respond(response(for: request)))
    }

    func response(for request: HTTPRequest) -> HTTPResponse {
        guard let query = request.queryItems else { return Self.error(400, "invalid percent-encoding in the query") }
        let appKey = query.first { $0.name == "app_key" }?.value
        switch request.rawPath {
        case "/__admin/pusher/plan":
            guard let appKey, !appKey.isEmpty else { return Self.error(400, "app_key: required") }
            return plan(appKey, request)
        case "/__admin/pusher/journal":
            guard let appKey, !appKey.isEmpty else { return Self.error(400, "app_key: required") }
            var since: UInt64 = 0
            if let text = query.first(where: { $0.name == "since" })?.value {
                guard let value = UInt64(text) else { return Self.error(400, "since: expected a sequence number (an integer >= 0)") }
                since = value
            }
            return journal(appKey, since: since, request)
        case "/__admin/pusher/":
            guard request.method == "GET" else { return Self.methodNotAllowed(request.method, allowed: "GET") }
            return Self.ok(.object([("routes", .array(Self.routes.map { route in
                .object([("method", .string(route.method)), ("path", .string(route.path)), ("description", .string(route.description))])
            }))]))
        case "/__admin/pusher/reset":
            guard request.method == "POST" else { return Self.methodNotAllowed(request.method, allowed: "POST") }
            service.faults.clearAll()
            service.journal.clearAll()
            service.authorizations.clearAll()
            return Self.ok(.object([("reset", .bool(true))]))
        case "/__admin/pusher/connections":
            guard request.method == "GET" else { return Self.methodNotAllowed(request.method, allowed: "GET") }
            return Self.ok(.object([
                ("open", .int(service.openConnectionCount)), ("established", .int(service.core.connectionCount)),
                ("httpSessions", .int(service.httpSessionCount)),
            ]))
        default:
            return harnessResponse(for: request, query: query) ?? Self.error(404, "no admin route \(request.method) \(request.rawPath)")
        }
    }

    private func plan(_ appKey: String, _ request: HTTPRequest) -> HTTPResponse {
        switch request.method {
        case "GET":
            guard let plan = service.faults.plan(for: appKey) else { return Self.error(404, "no Pusher plan for key \"\(appKey)\"") }
            return Self.ok(.object([
                ("appKey", .string(appKey)), ("plan", plan.json),
                ("faulted", .array(service.faults.faultedCounts(for: appKey).map { JSONValue.int($0) })),
            ]))
        case "PUT", "POST":
            do throws(PusherFaultPlanError) {
                let plan = try PusherFaultPlan.decode(json: request.body)
                if let named = plan.appKey, named != appKey {
                    throw PusherFaultPlanError(path: "appKey", message: "\"\(named)\" does not match app_key \"\(appKey)\"")
                }
                service.faults.install(plan, for: appKey)
                return Self.ok(.object([("appKey", .string(appKey)), ("rules", .int(plan.rules.count))]))
            } catch {
                return Self.error(400, error.description)
            }
        case "DELETE":
            return Self.ok(.object([("appKey", .string(appKey)), ("cleared", .bool(service.faults.clear(appKey)))]))
        default:
            return Self.methodNotAllowed(request.method, allowed: "GET, PUT, POST, DELETE")
        }
    }

    private func journal(_ appKey: String, since: UInt64, _ request: HTTPRequest) -> HTTPResponse {
        switch request.method {
        case "GET":
            let entries = service.journal.entries(for: appKey, since: since)
            return Self.ok(.object([
                ("appKey", .string(appKey)), ("lastSequence", .int(entries.last?.sequence ?? since)),
                ("entries", .array(entries.map(\.json))),
            ]))
        case "DELETE":
            service.journal.clear(appKey)
            return Self.ok(.object([("appKey", .string(appKey)), ("cleared", .bool(true))]))
        default:
            return Self.methodNotAllowed(request.method, allowed: "GET, DELETE")
        }
    }

    static func ok(_ json: JSONValue) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: json.jsonBytes)
    }

    /// `{"error":true,"message":"…","status":N,"service":"Admin"}`, as the rest of the admin API.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        let body = JSONValue.object([
            ("error", .bool(true)), ("message", .string(message)), ("status", .int(status)), ("service", .string("Admin")),
        ])
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body.jsonBytes)
    }

    static func methodNotAllowed(_ method: String, allowed: String) -> HTTPResponse {
        var response = error(405, "method \(method) not allowed here (allowed: \(allowed))")
        response.headers.add("Allow", allowed)
        return response
    }
}
