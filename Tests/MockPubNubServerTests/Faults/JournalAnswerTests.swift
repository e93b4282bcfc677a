// SPDX-License-Identifier: MIT
import Glibc
import HarnessTesting
import Testing
@testable import MockPubNubServer

/// What the journal records of the server's answer: kind, status, bytes, duration, how the
/// connection ends; and the client going away before an answer.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct JournalAnswerTests {
    @Test func answersDescribeEveryAction() {
        let response = HTTPResponse.pubNub(503, "{\"error\":true}")
        #expect(JournalAnswer(.respond(response), elapsedMs: 2) ==
                JournalAnswer(kind: "respond", status: 503, bytes: 14, durationMs: 2, close: "keep-alive"))
        #expect(JournalAnswer(.raw(Array(repeating: 0x41, count: 80), then: .reset), elapsedMs: 1) ==
                JournalAnswer(kind: "raw", bytes: 80, durationMs: 1, close: "reset"))
        // 10 bytes in pieces of 3: 4 pieces, 3 intervals of 50 ms after the first.
        #expect(JournalAnswer(.drip(Array(repeating: 0x41, count: 10), chunkSize: 3, interval: .milliseconds(50), then: .fin), elapsedMs: 1) ==
                JournalAnswer(kind: "drip", bytes: 10, durationMs: 151, close: "fin"))
        #expect(JournalAnswer(.delay(.milliseconds(200), then: .delay(.milliseconds(50), then: .close(.fin))), elapsedMs: 1) ==
                JournalAnswer(kind: "close", durationMs: 251, close: "fin"))
        #expect(JournalAnswer(.hang, elapsedMs: 3) == JournalAnswer(kind: "hang", durationMs: 3))
        #expect(JournalAnswer(kind: "respond", status: 200, bytes: 5, durationMs: 1.23456, close: "keep-alive").json.jsonText
                == #"{"kind":"respond","status":200,"bytes":5,"durationMs":1.235,"close":"keep-alive"}"#)
    }

    @Test func theLayerRecordsTheAnswerAndACancelledWait() throws {
        let answering = FaultLayer(upstream: FakeUpstream(response: FaultFixtures.sent), scheduler: ManualScheduler())
        let sink = ActionSink()
        answering.handle(FaultFixtures.request("GET", "/publish/p/sk/0/c/0/1?uuid=u"), context: FaultFixtures.context(),
                         responder: sink.responder())
        #expect(sink.all == [.respond(FaultFixtures.sent)])
        let answer = try #require(answering.journal(for: "sk").first?.answer)
        #expect(answer.kind == "respond" && answer.status == 200 && answer.bytes == FaultFixtures.sent.body.count && answer.close == "keep-alive")

        let parking = FaultLayer(upstream: FakeUpstream(response: nil), scheduler: ManualScheduler())
        let outer = Responder { _ in }
        parking.handle(FaultFixtures.request("GET", "/v2/subscribe/sk/c/0?tt=1&uuid=u"), context: FaultFixtures.context(),
                       responder: outer)
        #expect(parking.journal(for: "sk").first?.answer == nil)  // still waiting
        outer.cancel()  // the client went away
        #expect(parking.journal(for: "sk").first?.answer?.kind == "cancelled")
        #expect(parking.journal(for: "sk").first?.json["answer"]?["kind"] == "cancelled")
    }

    /// Over a real socket: a 503 fault, a reset fault and a long-poll the client abandons.
    @Test func realConnectionsJournalStatusResetAndAbandon() async throws {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk", #"{"rules":[{"id":"busy","match":{"endpoint":"publish"},"times":1,"fault":{"kind":"status","status":503}},"#
                                 + #"{"id":"drop","match":{"endpoint":"time"},"fault":{"kind":"reset"}}]}"#)
            let busy = try EndToEnd.response(port: port, "/publish/p/sk/0/c/0/1?uuid=u")
            #expect(busy.statusLine.hasPrefix("HTTP/1.1 503"))
            _ = try EndToEnd.exchange(port: port, EndToEnd.get("/time/0?uuid=u"))
            let client = try BlockingTestClient(port: port)
            client.send(EndToEnd.get("/v2/subscribe/sk/c/0?tt=1&uuid=u"))
            #expect(eventually { server.journal(subscribeKey: "sk").count == 3 })
            client.reset()
            #expect(eventually { server.journal(subscribeKey: "sk").last?.answer != nil })
            let answers = server.journal(subscribeKey: "sk").map(\.answer)
            #expect(answers[0]?.kind == "respond" && answers[0]?.status == 503 && answers[0]?.bytes == busy.body.count)
            #expect(answers[0]?.durationMs ?? -1 >= 0)
            #expect(answers[1]?.kind == "close" && answers[1]?.close == "reset")
            #expect(answers[2]?.kind == "cancelled")
        }
    }
}
