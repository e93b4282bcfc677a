// SPDX-License-Identifier: MIT
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ConcurrencyTests {
    /// Sends one subscribe and waits for its answer.
    private func poll(_ h: ServiceHarness, _ cursor: String) async -> String {
        await withCheckedContinuation { continuation in
            let context = RequestContext(connectionID: 2, peer: "127.0.0.1:1", localPort: 1, isTLS: false,
                                         arrivalTime: 0, sequenceOnConnection: 0)
            let responder = Responder { action in
                guard case .respond(let response) = action else { return continuation.resume(returning: "") }
                continuation.resume(returning: String(decoding: response.body, as: UTF8.self))
            }
            h.service.handle(HTTPRequest(method: "GET", target: "/v2/subscribe/demo/ch/0?tt=\(cursor)"),
                             context: context, responder: responder)
        }
    }

    /// The `"d":"p<publisher>-<n>"` payloads of a subscribe body, in order.
    private func payloads(_ body: String) -> [String] {
        body.split(separator: "\"d\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func concurrentPublishersLoseDuplicateAndReorderNothing() async {
        let h = ServiceHarness()
        let publishers = 4, perPublisher = 250
        let finished = FinishedFlag()
        let subscriber = Task { () -> [String] in
            defer { finished.set() }
            var cursor = "1"
            var received: [String] = []
            for _ in 0..<5_000 {
                let body = await poll(h, cursor)
                received += payloads(body)
                cursor = ServiceHarness.cursor(body)
                if received.last == "end" { break }
            }
            return received
        }
        await withTaskGroup(of: Void.self) { group in
            for publisher in 0..<publishers {
                group.addTask {
                    for index in 0..<perPublisher { h.publish("ch", "\"p\(publisher)-\(index)\"") }
                }
            }
        }
        h.publish("ch", "\"end\"")
        // If a message were lost the subscriber would stay parked: idle answers release it, and its
        // loop is bounded, so the test fails instead of hanging.
        for _ in 0..<100_000 where !finished.isSet {
            h.scheduler.advance(by: .seconds(300))
            await Task.yield()
        }
        let received = await subscriber.value
        #expect(received.count == publishers * perPublisher + 1)
        #expect(Set(received).count == received.count)
        for publisher in 0..<publishers {
            let own = received.filter { $0.hasPrefix("p\(publisher)-") }
            #expect(own == (0..<perPublisher).map { "p\(publisher)-\($0)" })
        }
        let history = h.call("/v3/history/sub-key/demo/channel/ch?max=100").1
        #expect(history.split(separator: "\"timetoken\"").count - 1 == 100)
    }
}

/// Set once by the subscriber task when it ends.
private final class FinishedFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
