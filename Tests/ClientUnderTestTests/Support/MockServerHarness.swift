// SPDX-License-Identifier: MIT
import MockPubNubServer
import Synchronization

/// Records every request and can simulate an outage: while `outage` is on, long-polls (`tt` ≠ 0)
/// and `/time/0` are reset; everything else goes to the PubNub service.
final class RecordingRouter: RequestHandler {
    let journal = Waitable<String>()
    let service = Mutex<PubNubService?>(nil)
    let outage = Mutex(false)

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        journal.append(request.target)
        let isTime = request.rawPath == "/time/0"
        let isLongPoll = request.rawPath.hasPrefix("/v2/subscribe/") && !request.rawQuery.contains("tt=0")
        if outage.withLock({ $0 }), isTime || isLongPoll {
            responder.send(.close(.reset))
            return
        }
        guard let service = service.withLock({ $0 }) else { return }
        service.handle(request, context: context, responder: responder)
    }
}

/// The in-process mock server (HTTPServer + PubNubService) on 127.0.0.1:0.
final class MockServerHarness: Sendable {
    let router = RecordingRouter()
    let server: HTTPServer
    let port: Int

    init(service configuration: PubNubServiceConfiguration = PubNubServiceConfiguration()) throws {
        server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1), handler: router)
        let service = PubNubService(configuration: configuration, scheduler: server.scheduler)
        router.service.withLock { $0 = service }
        port = try server.start().port
    }

    static func start() throws -> MockServerHarness { try MockServerHarness() }

    var origin: String { "127.0.0.1:\(port)" }
    var journal: Waitable<String> { router.journal }
    func setOutage(_ on: Bool) { router.outage.withLock { $0 = on } }
    func stop() { server.stop() }
}
