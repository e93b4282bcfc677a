// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
import Testing
@testable import ConformanceKit

/// The driver protocol over real pipes, with small scripted drivers (no server needed).
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ExternalProcessClientTests {
    /// A driver that connects on subscribe and echoes each publish back as a message.
    static let echoDriver = #"""
    import json, sys
    def out(o):
        sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
    for line in sys.stdin:
        step = json.loads(line)
        i, t = step["id"], step["type"]
        if t == "configure":
            sys.stderr.write("configured for " + step["subscribeKey"] + "\n"); sys.stderr.flush()
            out({"id": i, "type": "result"})
        elif t == "subscribe":
            out({"type": "log", "text": "subscribing"})
            out({"type": "status", "category": "PNConnectedCategory", "operation": "subscribe"})
            out({"id": i, "type": "result"})
        elif t == "publish":
            out({"type": "message", "channel": step["channel"], "message": step["message"], "publisher": "me"})
            out({"id": i, "type": "result", "category": "PNAcknowledgmentCategory", "error": False, "statusCode": 200,
                 "data": {"timetoken": "17000000000000000"}})
        elif t == "time":
            out({"id": i, "type": "result", "category": "PNSomeOtherSDKCategory", "error": True})
        elif t == "close":
            out({"id": i, "type": "result"}); break
        else:
            out({"id": i, "type": "unsupported", "detail": t})
    """#

    static func script(_ text: String) throws -> String {
        // Named by content, so repeated runs reuse one file per script instead of piling them up.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("harness-driver-\(String(stableHash(text), radix: 16)).py")
        try Data(text.utf8).write(to: url, options: .atomic)
        return "python3 \(url.path)"
    }

    func run(_ cases: [ConformanceCase], driver: String) async throws -> RunReport {
        let client = ExternalProcessClient(command: try Self.script(driver), name: "echo", controlTimeout: TestTime.duration(5),
                                           startTimeout: TestTime.duration(30))
        let runner = ConformanceRunner(server: FakeServer(), client: client,
                                       options: RunOptions(seed: 1, concurrency: 2, timeScale: await TestPacing.scale()))
        return await runner.run(cases)
    }

    @Test func casesRunThroughADriver() async throws {
        let roundTrip = ConformanceCase.test("d.r.echo", steps: [
            .subscribe(["c"]), .expect(.connected),
            .publish("c", ["k": "v"]),
            .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, statusCode: 200, timetokenPaths: ["timetoken"])),
            .expectMessages([ExpectedMessage(channel: "c", message: ["k": "v"], publisher: "me")], withinMs: 2_000),
        ], expected: [.connected, .acknowledgment])
        let unsupported = ConformanceCase.test("d.r.unsupported", steps: [.perform(.hereNow(channels: ["c"]))], expected: [])
        let foreignCategory = ConformanceCase.test("d.r.foreign", steps: [.time, .expect(.unknown, within: 100)], expected: [.unknown])
        let report = try await run([roundTrip, unsupported, foreignCategory], driver: Self.echoDriver)
        #expect(report.results.map(\.outcome) == [.pass, .skipped, .pass], "\(report.results.map(\.detail))")
        #expect(report.results[1].detail == "client does not support hereNow (hereNow)")
        #expect(report.client == "echo")
    }

    @Test func aDriverThatDiesFailsTheCaseWithItsStderr() async throws {
        let dying = #"""
        import json, sys
        step = json.loads(sys.stdin.readline())
        sys.stdout.write(json.dumps({"id": step["id"], "type": "result"}) + "\n"); sys.stdout.flush()
        sys.stdin.readline()
        sys.stderr.write("driver exploded\n"); sys.exit(3)
        """#
        let report = try await run([ConformanceCase.test("d.r.dies", steps: [.publish("c", 1)], expected: [.acknowledgment])], driver: dying)
        let result = try #require(report.results.first)
        #expect(result.outcome == .fail)
        #expect(result.detail.hasPrefix("step 1 publish: client protocol violation: driver closed its output"))
        #expect(result.detail.contains("driver exploded"))
    }

    @Test func aCommandThatCannotStartFailsSetup() async throws {
        let client = ExternalProcessClient(command: "/nonexistent/driver-binary", controlTimeout: TestTime.duration(5))
        let runner = ConformanceRunner(server: FakeServer(), client: client, options: RunOptions(seed: 1))
        let report = await runner.run([ConformanceCase.test("d.r.nostart", steps: [.time], expected: [])])
        #expect(report.results.first?.outcome == .fail)
        #expect(report.results.first?.detail.hasPrefix("client session: client protocol violation:") == true)
    }

    @Test func driverLinesDecode() throws {
        #expect(try DriverLines.decode(#"{"id":4,"type":"result","category":"PNTimeoutCategory","error":true,"statusCode":null}"#)
                == .reply(id: 4, .result(OperationResult(category: .timeout, isError: true))))
        #expect(try DriverLines.decode(#"{"type":"presence","channel":"c","action":"join","uuid":"u","occupancy":2}"#)
                == .event(.presence(PresenceEvent(channel: "c", action: "join", uuid: "u", occupancy: 2))))
        #expect(try DriverLines.decode(#"{"type":"signal","channel":"c","message":"s"}"#)
                == .event(.message(MessageEvent(channel: "c", message: "s", isSignal: true))))
        #expect(throws: ClientAdapterError.protocolViolation("unknown line type \"bogus\"")) { try DriverLines.decode(#"{"type":"bogus"}"#) }
        #expect(throws: ClientAdapterError.protocolViolation("not a JSON object: [1]")) { try DriverLines.decode("[1]") }
        #expect(throws: ClientAdapterError.protocolViolation(#"status without category: {"type":"status"}"#)) { try DriverLines.decode(#"{"type":"status"}"#) }
    }

    @Test func operationsEncodeAsDocumented() {
        #expect(JSONValue.object(JSONObject(ClientOperation.publish(channel: "c", message: ["a": 1], meta: nil, storeInHistory: false).driverFields)).jsonText
                == #"{"channel":"c","message":{"a":1},"storeInHistory":false,"type":"publish","usePOST":false}"#)
        #expect(JSONValue.object(JSONObject(ClientOperation.subscribe(channels: ["a"], groups: [], withPresence: true, timetoken: "1").driverFields)).jsonText
                == #"{"channels":["a"],"groups":[],"timetoken":"1","type":"subscribe","withPresence":true}"#)
        #expect(JSONValue.object(JSONObject(ClientOperation.history(channel: "h", count: 2).driverFields)).jsonText
                == #"{"channel":"h","count":2,"includeTimetoken":true,"reverse":false,"type":"history"}"#)
        #expect(JSONValue.object(JSONObject(ClientOperation.fire(channel: "c", message: "f").driverFields)).jsonText
                == #"{"channel":"c","message":"f","type":"fire"}"#)
        #expect(JSONValue.object(JSONObject(ClientOperation.grant(Grant(channels: ["c"], authKey: "a", write: false)).driverFields)).jsonText
                == #"{"authKeys":["a"],"channels":["c"],"groups":[],"manage":false,"read":true,"ttl":5,"type":"grant","write":false}"#)
    }

    @Test func secretKeyIsConfiguredOnlyWhenTheCaseAsksForIt() {
        func fields(_ overrides: ClientOverrides) -> [String: JSONValue] {
            ClientSessionConfiguration(origin: "127.0.0.1:1", caPEM: nil, subscribeKey: "s", publishKey: "p", uuid: "u",
                                       secretKey: "sec", overrides: overrides).driverFields
        }
        #expect(fields(ClientOverrides())["secretKey"] == nil)
        #expect(fields(ClientOverrides(secretKey: false))["secretKey"] == nil)
        #expect(fields(ClientOverrides(secretKey: true))["secretKey"] == "sec")
    }
}
