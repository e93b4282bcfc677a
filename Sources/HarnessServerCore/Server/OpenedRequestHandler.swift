// SPDX-License-Identifier: MIT

/// A request handler held by a class reference, for the transport's per-request call.
///
/// Calling a stored `any RequestHandler` copies the existential (a value of unknown size) out of
/// its storage and destroys the copy after the call, on every request; a class-bound existential
/// is called in place. `opened(_:)` wraps a handler once (when the server or its routes are made).
protocol OpenedRequestHandler: AnyObject, Sendable {
    /// Calls the wrapped handler.
    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder)
}

/// `handler` behind a class reference, its type known inside (the call is direct).
final class OpenedHandler<Handler: RequestHandler>: OpenedRequestHandler {
    let handler: Handler

    init(_ handler: Handler) {
        self.handler = handler
    }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        handler.handle(request, context: context, responder: responder)
    }
}

/// `handler` opened once for per-request calls.
func opened(_ handler: some RequestHandler) -> any OpenedRequestHandler {
    OpenedHandler(handler)
}
