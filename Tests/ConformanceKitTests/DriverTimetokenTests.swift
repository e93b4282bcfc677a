// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import ConformanceKit

/// A 17-digit timetoken is beyond a Double's 53-bit mantissa: whether a driver writes it as a JSON
/// number or as a string, the harness must read and send back exactly its digits.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct DriverTimetokenTests {
    static let timetoken = "17113796871100315"

    /// Answers publish with the timetoken as a NUMBER and emits the message with it; on subscribe
    /// it echoes the requested timetoken back as a number in a status line.
    static let numericDriver = #"""
    import json, sys
    emit = lambda line: print(json.dumps(line), flush=True)
    while True:
        request = sys.stdin.readline()
        if not request:
            break
        step = json.loads(request)
        if step["type"] == "publish":
            emit({"type": "message", "channel": step["channel"], "message": step["message"], "timetoken": 17113796871100315})
            emit({"id": step["id"], "type": "result", "category": "PNAcknowledgmentCategory", "error": False,
                  "statusCode": 200, "data": {"timetoken": 17113796871100315}})
        elif step["type"] == "subscribe":
            emit({"type": "status", "category": "PNConnectedCategory", "timetoken": int(step["timetoken"])})
            emit({"id": step["id"], "type": "result"})
        else:
            emit({"id": step["id"], "type": "result"})
    """#

    @Test func numericTimetokensFromADriverRoundTripExactly() async throws {
        let client = ExternalProcessClient(command: try ExternalProcessClientTests.script(Self.numericDriver), controlTimeout: TestTime.duration(10))
        let session = try await client.makeSession(configuration: ClientSessionConfiguration(
            origin: "127.0.0.1:1", caPEM: nil, subscribeKey: "s", publishKey: "p", uuid: "u"))
        var events = session.events.makeAsyncIterator()

        let published = try await session.perform(.publish(channel: "c", message: ["n": 1]))
        let timetoken = try #require(published.data?["timetoken"])
        #expect(timetoken.timetokenValue == 17_113_796_871_100_315)
        #expect(timetoken.jsonText == Self.timetoken)
        guard case .message(let message)? = await events.next() else { Issue.record("no message event"); return }
        #expect(message.timetoken == Self.timetoken)

        // Back to the driver as the subscribe cursor, and back again as a number.
        _ = try await session.perform(.subscribe(channels: ["c"], timetoken: message.timetoken))
        guard case .status(let status)? = await events.next() else { Issue.record("no status event"); return }
        #expect(status.timetoken == Self.timetoken)
        await session.close()
    }

    @Test func driverLinesKeepNumericAndStringTimetokens() throws {
        for raw in [Self.timetoken, "\"\(Self.timetoken)\""] {
            let line = #"{"type":"message","channel":"c","message":1,"timetoken":"# + raw + "}"
            guard case .event(.message(let message)) = try DriverLines.decode(line) else {
                Issue.record("not a message: \(line)")
                continue
            }
            #expect(message.timetoken == Self.timetoken)
        }
    }
}
