// SPDX-License-Identifier: MIT

/// The root handler of the server's port: `/__admin` and `/__admin/...` go to the admin API,
/// everything else to `next` (normally the fault layer in front of the PubNub service). Admin
/// paths an extension claims (an `httpPathPrefixes` entry under `/__admin/`, e.g.
/// `/__admin/pusher/`) go to that extension, for the same peers the admin API answers.
package struct AdminRouter: RequestHandler {
    private let admin: AdminAPI
    private let extensions: [any ServerExtension]
    private let next: any RequestHandler

    package init(admin: AdminAPI, extensions: [any ServerExtension] = [], next: any RequestHandler) {
        self.admin = admin
        self.extensions = extensions.filter { $0.httpPathPrefixes.contains { $0.hasPrefix("/__admin/") } }
        self.next = next
    }

    /// Whether `request` is for the admin API.
    package static func isAdmin(_ request: HTTPRequest) -> Bool {
        request.rawPath == "/__admin" || request.rawPath.hasPrefix("/__admin/")
    }

    package func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        if Self.isAdmin(request) {
            let claimed = extensions.first { $0.httpPathPrefixes.contains { $0.hasPrefix("/__admin/") && request.rawPath.hasPrefix($0) } }
            if let claimed {
                if let refusal = admin.refusal(for: context) {
                    responder.send(.respond(refusal))
                } else {
                    claimed.handle(request, context: context, responder: responder)
                }
            } else {
                admin.handle(request, context: context, responder: responder)
            }
        } else {
            next.handle(request, context: context, responder: responder)
        }
    }
}
