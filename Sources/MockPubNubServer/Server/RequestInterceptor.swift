// SPDX-License-Identifier: MIT

/// Answers chosen requests before the fault layer and the PubNub service see them, as
/// `serve --playback` answers recorded exchanges (`MockServerConfiguration.interceptor`).
public protocol RequestInterceptor: Sendable {
    /// The answer to `request`, or `nil` to let the mock answer it as usual. Called on an
    /// event-loop thread: must not block.
    func answer(to request: HTTPRequest, context: RequestContext) -> ResponseAction?
}

/// The fallback of a mock with an interceptor: the interceptor's answer, else the fault layer's.
/// (An intercepted request is not journaled: the fault layer never sees it.)
struct InterceptingHandler: RequestHandler {
    let interceptor: any RequestInterceptor
    let next: any RequestHandler

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        if let action = interceptor.answer(to: request, context: context) {
            responder.send(action)
        } else {
            next.handle(request, context: context, responder: responder)
        }
    }
}
