// SPDX-License-Identifier: MIT
import Logging
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The request log writes one line per request, answered or abandoned, and passes the answer on.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RequestLogTests {
    /// Keeps every message logged through it.
    struct CapturingLogHandler: LogHandler {
        final class Lines: Sendable {
            let all = Mutex<[String]>([])
        }

        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let connection = event.metadata?["connection.id"].map { "\($0)" } ?? "-"
            lines.all.withLock { $0.append("\(event.level) \(event.message) \(connection)") }
        }
    }

    private func log(next: @escaping @Sendable (Responder) -> Void) -> (RequestLog, CapturingLogHandler.Lines) {
        let lines = CapturingLogHandler.Lines()
        let logger = Logger(label: "requests") { _ in CapturingLogHandler(lines: lines) }
        let handler = ClosureHandler { _, _, responder in next(responder) }
        return (RequestLog(next: handler, logger: logger, level: .info), lines)
    }

    @Test func anAnsweredRequestIsLoggedWithItsOutcomeAndPassedOn() throws {
        let (requestLog, lines) = log { $0.send(.respond(HTTPResponse(status: 204, headers: [:], body: []))) }
        let received = Mutex<[ResponseAction]>([])
        let outer = Responder { action in received.withLock { $0.append(action) } }
        requestLog.handle(FaultFixtures.request("GET", "/time/0"), context: FaultFixtures.context(), responder: outer)
        #expect(received.withLock { $0 } == [.respond(HTTPResponse(status: 204, headers: [:], body: []))])
        let line = try #require(lines.all.withLock { $0 }.first)
        #expect(line.hasPrefix("info GET /time/0 -> 204 (") && line.hasSuffix(" ms) \(FaultFixtures.context().connectionID)"))
        #expect(lines.all.withLock { $0 }.count == 1)
    }

    @Test func anAbandonedRequestIsLoggedAndTheInnerResponderCancelled() {
        let parked = Mutex<Responder?>(nil)
        let (requestLog, lines) = log { responder in parked.withLock { $0 = responder } }
        let outer = Responder { _ in Issue.record("nothing may be sent") }
        requestLog.handle(FaultFixtures.request("GET", "/v2/subscribe/k/c/0"), context: FaultFixtures.context(), responder: outer)
        #expect(lines.all.withLock { $0 }.isEmpty)
        outer.cancel()
        #expect(lines.all.withLock { $0 } == ["info GET /v2/subscribe/k/c/0 -> client went away \(FaultFixtures.context().connectionID)"])
        #expect(parked.withLock { $0 }?.wasCancelled == true)
    }
}
