// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher

/// The HTTP fallback transports on the same listeners as `/app/KEY`: `POST` requests under
/// `/pusher/app/KEY/SERVER/SESSION/` (`xhr_streaming`, `xhr`, `xhr_send`), each session one
/// connection of the core. Bad requests get a plain-text answer with their status.
struct PusherHTTPTransportExtension: SchedulingServerExtension {
    let service: PusherService

    func attach(scheduler: any Scheduler) { service.httpSessions.attach(scheduler) }

    var httpPathPrefixes: [String] { [PusherHTTPPath.prefix] }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        let path: PusherHTTPPath
        switch PusherHTTPPath.parse(request.rawPath) {
        case .success(let parsed): path = parsed
        case .failure(.unknownKind(let kind)):
            return refuse(404, "unknown transport \"\(kind)\" (xhr_streaming, xhr or xhr_send)", responder)
        case .failure(.shape):
            return refuse(404, "expected /pusher/app/KEY/SERVER/SESSION/xhr_streaming|xhr|xhr_send", responder)
        }
        guard request.method == "POST" else {
            return refuse(405, "\(path.kind.rawValue) takes POST", responder, allow: "POST, OPTIONS")
        }
        let key = PusherHTTPSessions.Key(appKey: service.interner.appKey(path.appKey, core: service.core), session: path.session)
        switch path.kind {
        case .send: send(request, key: key, responder: responder)
        case .streaming, .polling: receive(request, path: path, key: key, context: context, responder: responder)
        }
    }

    private func receive(_ request: HTTPRequest, path: PusherHTTPPath, key: PusherHTTPSessions.Key, context: RequestContext, responder: Responder) {
        var faultRules: [String] = []
        if !service.httpSessions.exists(key) {
            // The client's cache-busting `t` and `n` are not the connection's query.
            let query = (request.queryItems ?? []).filter { $0.name != "t" && $0.name != "n" }.map { PusherQueryItem($0.name, $0.value) }
            let faults = service.faults.faults(forConnectionOn: key.appKey, query: query)
            if let refusal = faults.refusal(of: path.kind == .streaming ? .streaming : .polling) {
                responder.send(.respond(refusal))
                return
            }
            faultRules = faults.faults.map(\.rule)
            guard let id = service.httpSessions.receive(key, kind: path.kind, responder: responder, now: service.now) else { return }
            service.connectHTTP(
                id, appKey: key.appKey, query: query, tls: context.isTLS, faultRules: faultRules,
                transport: path.kind == .streaming ? "xhr_streaming" : "xhr_polling")
            return
        }
        _ = service.httpSessions.receive(key, kind: path.kind, responder: responder, now: service.now)
    }

    private func send(_ request: HTTPRequest, key: PusherHTTPSessions.Key, responder: Responder) {
        guard let id = service.httpSessions.connection(of: key) else {
            return refuse(404, "no session \(key.session) for app key \(key.appKey)", responder)
        }
        // UNVERIFIED: the SockJS protocol answers a broken body 500; a client error is a 400 here.
        guard let messages = PusherHTTPFrames.sentMessages(request.body) else {
            return refuse(400, "Broken JSON encoding: expected a JSON array of strings", responder)
        }
        service.sendHTTP(messages, appKey: key.appKey, on: id)
        responder.send(.respond(HTTPResponse(status: 204, headers: ["Content-Type": "text/plain; charset=UTF-8"])))
    }

    private func refuse(_ status: Int, _ message: String, _ responder: Responder, allow: String? = nil) {
        var headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8"]
        if let allow { headers.add("Allow", allow) }
        responder.send(.respond(HTTPResponse(status: status, headers: headers, body: Array((message + "\n").utf8))))
    }
}
