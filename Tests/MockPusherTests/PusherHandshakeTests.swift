// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher connection handshake", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherHandshakeTests {
    let now = PusherInstant(milliseconds: 0)
    let id = PusherConnectionID(1)

    private func connect(_ core: PusherCore, key: String = docApp.key, _ query: [PusherQueryItem]) -> [PusherAction] {
        core.handle(.connected(id, appKey: key, query: query, now: now))
    }

    @Test func connectionEstablishedHasTheLiveBytesWithActivityTimeoutLast() throws {
        let core = PusherCore(apps: [docApp], socketIDSeed: 7)
        let actions = connect(core, [PusherQueryItem("protocol", "7"), PusherQueryItem("client", "js"), PusherQueryItem("flash", "false")])
        let socketID = try #require(core.socketID(of: id))
        #expect(socketID.wholeMatch(of: /[1-9][0-9]*\.[1-9][0-9]*/) != nil)
        #expect(
            actions == [
                .send(id, #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"\#(socketID)\",\"activity_timeout\":120}"}"#)
            ])
    }

    @Test func socketIDsAreDeterministicPerSeedAndDistinct() {
        var first = PusherSocketIDGenerator(seed: 99)
        var second = PusherSocketIDGenerator(seed: 99)
        let a = (0..<50).map { _ in first.next() }
        let b = (0..<50).map { _ in second.next() }
        #expect(a == b)
        #expect(Set(a).count == 50)
        #expect(a.allSatisfy { $0.wholeMatch(of: /\d+\.\d+/) != nil })
    }

    @Test func activityTimeoutFollowsTheAppOption() {
        var app = docApp
        app.options.activityTimeout = .seconds(30)
        let core = PusherCore(apps: [app])
        guard case .send(_, let text)? = connect(core, [PusherQueryItem("protocol", "6")]).first else { return #expect(Bool(false)) }
        #expect(text.hasSuffix(#",\"activity_timeout\":30}"}"#))
    }

    @Test(arguments: ["4", "5", "6", "7"])
    func protocolsFourToSevenAreAccepted(_ version: String) {
        let core = PusherCore(apps: [docApp])
        let actions = connect(core, [PusherQueryItem("client", "libPusher"), PusherQueryItem("protocol", version), PusherQueryItem("version", "1.6.4")])
        #expect(actions.count == 1)
        #expect(core.connectionCount == 1)
    }

    @Test func unsupportedProtocolIsClosed4007WithoutAnErrorEventFromSixOn() {
        let core = PusherCore(apps: [docApp])
        #expect(connect(core, [PusherQueryItem("protocol", "99")]) == [.close(id, code: 4007, reason: "Unsupported protocol version")])
        #expect(core.connectionCount == 0)
    }

    @Test func oldProtocolGetsAPusherErrorBeforeTheClose() {
        let core = PusherCore(apps: [docApp])
        #expect(
            connect(core, [PusherQueryItem("protocol", "3")]) == [
                .send(id, errorFrame("Unsupported protocol version", code: 4007)), .close(id, code: 4007, reason: "Unsupported protocol version"),
            ])
    }

    @Test func missingProtocolIsClosed4008ByDefault() {
        let core = PusherCore(apps: [docApp])
        #expect(connect(core, [PusherQueryItem("client", "js")]) == [.close(id, code: 4008, reason: "No protocol version supplied")])
    }

    @Test func missingProtocolCanBeAssumed() {
        var app = docApp
        app.options.missingProtocol = .assume(7)
        let core = PusherCore(apps: [app])
        #expect(connect(core, []).count == 1)
        #expect(core.connectionCount == 1)
    }

    @Test func nonIntegerProtocolIsClosed4006() {
        let core = PusherCore(apps: [docApp])
        #expect(connect(core, [PusherQueryItem("protocol", "7a")]) == [.close(id, code: 4006, reason: "Invalid version string format")])
    }

    @Test func unknownKeyIsClosed4001WithTheLiveReason() {
        let core = PusherCore(apps: [docApp])
        let reason = "Could not find app by key API_KEY. Perhaps you're connecting to the wrong cluster."
        #expect(connect(core, key: "API_KEY", [PusherQueryItem("protocol", "7")]) == [.close(id, code: 4001, reason: reason)])
        #expect(
            connect(core, key: "API_KEY", [PusherQueryItem("protocol", "5")]) == [
                .send(id, errorFrame(reason, code: 4001)), .close(id, code: 4001, reason: reason),
            ])
    }

    @Test func closeReasonsAreCutTo123Bytes() {
        let core = PusherCore(apps: [docApp])
        let key = String(repeating: "k", count: 200)
        guard case .close(_, 4001, let reason)? = connect(core, key: key, [PusherQueryItem("protocol", "7")]).last else {
            return #expect(Bool(false))
        }
        #expect(reason.utf8.count == 123)
        #expect(reason.hasPrefix("Could not find app by key kkk"))
    }

    @Test func pingInEveryClientFormGetsTheExactPong() {
        let bed = PusherTestBed()
        bed.connect(1)
        for ping in [#"{"event":"pusher:ping"}"#, #"{"event":"pusher:ping","data":{}}"#, #"{"event":"pusher:ping","data":""}"#, #"{"event": "pusher:ping", "data": {} }"#] {
            #expect(bed.send(1, ping) == [.send(PusherConnectionID(1), #"{"event":"pusher:pong","data":"{}"}"#)])
        }
    }

    @Test func malformedMessagesGetAnErrorAndTheConnectionStays() {
        let bed = PusherTestBed()
        bed.connect(1)
        let expected = errorFrame("Invalid message: expected a JSON object with an event name")
        #expect(sent(bed.send(1, "{not json"), to: 1) == [expected])
        #expect(sent(bed.send(1, "[1,2]"), to: 1) == [expected])
        #expect(sent(bed.send(1, #"{"data":{}}"#), to: 1) == [expected])
        #expect(bed.core.connectionCount == 1)
    }

    @Test func binaryMessagesAreClosed1003() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(bed.core.handle(.binary(PusherConnectionID(1), now: bed.now)) == [.close(PusherConnectionID(1), code: 1003, reason: "Binary messages are not supported")])
        #expect(bed.core.connectionCount == 0)
        #expect(bed.core.handle(.closed(PusherConnectionID(1), now: bed.now)).isEmpty)
    }
}
