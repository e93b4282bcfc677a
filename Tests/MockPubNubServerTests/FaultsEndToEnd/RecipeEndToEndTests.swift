// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// docs/recipes.md "subscribe times out twice, then succeeds", with the plan file itself
/// (Fixtures/plans/subscribe-timeout-twice.json) installed the way `serve --plan` installs it.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RecipeEndToEndTests {
    private static let planFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/plans/subscribe-timeout-twice.json")

    struct Observed: Sendable {
        var installedUnder: [String]
        var handshakeStatus: String
        var firstTwo: [BlockingTestClient.End]
        var thirdMessages: [JSONValue]
        var rules: [String?]
        var matchNumbers: [Int?]
    }

    @Test func subscribeTimesOutTwiceThenSucceeds() async throws {
        let bytes = Array(try Data(contentsOf: Self.planFile))
        let seen = try await EndToEnd.run { server, port in
            let installed = try server.faults.installPlans(fromFile: bytes).map(\.subscribeKey)
            let handshake = try EndToEnd.response(port: port, EndToEnd.subscribe("sk-recipe"))
            let cursor = try SubscribeBody.cursor(handshake.body)
            let longPoll = EndToEnd.get(EndToEnd.subscribe("sk-recipe", tt: cursor, extra: "&tr=1"))
            var firstTwo: [BlockingTestClient.End] = []
            for _ in 0..<2 {
                let client = try BlockingTestClient(port: port)
                client.send(longPoll)
                // The client's subscribe timeout, shortened: nothing arrives before it gives up.
                firstTwo.append(client.readToEnd(timeoutMs: 300).end)
            }
            let third = try BlockingTestClient(port: port)
            third.send(longPoll)
            // Parked by the service (no fault): answered by the next publish.
            for _ in 0..<100 where server.journal(subscribeKey: "sk-recipe").count < 4 { usleep(10_000) }
            _ = try status(port, EndToEnd.publish("sk-recipe", channel: "ch", message: "%22after%22"))
            let answer = HTTPResponseText(Array((third.readResponse(timeoutMs: TestTime.budgetMs(3000)) ?? "").utf8))
            let journal = server.journal(subscribeKey: "sk-recipe").filter { $0.endpoint == .subscribe }
            return Observed(
                installedUnder: installed, handshakeStatus: handshake.statusLine, firstTwo: firstTwo,
                thirdMessages: try SubscribeBody.messages(answer.body), rules: journal.map(\.rule), matchNumbers: journal.map(\.matchNumber))
        }
        #expect(seen.installedUnder == ["*"])
        #expect(seen.handshakeStatus == "HTTP/1.1 200 OK")
        #expect(seen.firstTwo == [.timedOut, .timedOut])
        #expect(seen.thirdMessages.count == 1)
        #expect(seen.thirdMessages.first?["d"] == .string("after"))
        #expect(seen.rules == [nil, "subscribe-times-out-twice", "subscribe-times-out-twice", nil])
        #expect(seen.matchNumbers == [nil, 1, 2, nil])
    }
}
