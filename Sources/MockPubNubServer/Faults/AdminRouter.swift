// SPDX-License-Identifier: MIT

/// The root handler of the server's port: `/__admin` and `/__admin/...` go to the admin API,
/// everything else to `next` (normally the fault layer in front of the PubNub service).
package struct AdminRouter: RequestHandler {
    private let admin: AdminAPI
    private let next: any RequestHandler

    package init(admin: AdminAPI, next: any RequestHandler) {
        self.admin = admin
        self.next = next
    }

    /// Whether `request` is for the admin API.
    package static func isAdmin(_ request: HTTPRequest) -> Bool {
        request.rawPath == "/__admin" || request.rawPath.hasPrefix("/__admin/")
    }

    package func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        if Self.isAdmin(request) {
            admin.handle(request, context: context, responder: responder)
        } else {
            next.handle(request, context: context, responder: responder)
        }
    }
}
