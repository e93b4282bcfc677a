// SPDX-License-Identifier: MIT
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore

/// A responder's cancellation handlers: the first kept inline, the others behind it, all run in
/// registration order exactly once on a cancel, none after an answer.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ResponderCancelHandlerTests {
    @Test func handlersRunInOrderOnceWhenCancelled() {
        let order = Mutex<[Int]>([])
        let responder = Responder { _ in }
        for index in 1...3 { responder.onCancel { order.withLock { $0.append(index) } } }
        responder.cancel()
        responder.cancel()
        #expect(order.withLock { $0 } == [1, 2, 3])
        // Registered after the cancel: runs at once.
        responder.onCancel { order.withLock { $0.append(4) } }
        #expect(order.withLock { $0 } == [1, 2, 3, 4])
        #expect(responder.wasCancelled)
        #expect(!responder.send(.respond(HTTPResponse(status: 200))))
    }

    @Test func anAnsweredRequestRunsNoHandler() {
        let runs = Atomic<Int>(0)
        let sent = Mutex<[Int]>([])
        let responder = Responder { action in
            if case .respond(let response) = action { sent.withLock { $0.append(response.status) } }
        }
        responder.onCancel { runs.add(1, ordering: .relaxed) }
        responder.onCancel { runs.add(10, ordering: .relaxed) }
        #expect(responder.send(.respond(HTTPResponse(status: 204))))
        responder.cancel()
        responder.onCancel { runs.add(100, ordering: .relaxed) }
        #expect(runs.load(ordering: .relaxed) == 0)
        #expect(sent.withLock { $0 } == [204])
        #expect(!responder.wasCancelled)
    }
}
