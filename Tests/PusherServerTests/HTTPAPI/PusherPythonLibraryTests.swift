// SPDX-License-Identifier: MIT
import Foundation
import HarnessTesting
import MockPubNubServer
import MockPusher
import PusherServer
import Synchronization
import Testing

/// The official `pusher` HTTP library (PyPI, 3.3.x) against the HTTP API on a real loopback socket.
///
/// The interpreter is `$PUSHER_HTTP_PYTHON`, else the CI venv (`.ci/run` installs `pusher` there),
/// else `python3`; when none of them can import `pusher` the test is reported as skipped with that reason.
@Suite("Pusher HTTP API: the official pusher Python library", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherPythonLibraryTests {
    /// The interpreter (see ``PythonInterpreters``), nil when none can import `pusher`.
    static func python() async -> String? {
        await PythonInterpreters.first(of: PythonInterpreters.candidates(environment: ["PUSHER_HTTP_PYTHON"], systemPython: true),
                                       importing: "pusher")
    }

    @Test(
        .enabled("the pusher library (PyPI) is not installed: set PUSHER_HTTP_PYTHON or run .ci/run, which installs it") { await python() != nil },
        .timeLimit(.minutes(TestTime.limitMinutes(10))))
    func officialLibraryTalksToTheMock() async throws {
        let python = try #require(await Self.python())
        let app = PusherApp(id: "3", key: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8")
        // The composition `serve` runs: PusherService (WebSocket, HTTP API) with webhooks to a receiver.
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let dispatcher = try PusherWebhookDispatcher(apps: [app], urls: [app.id: "http://127.0.0.1:\(receiver.port)/hook/"])
        defer { dispatcher.stop() }
        let service = PusherService(
            apps: [app], options: PusherServiceOptions(webhookSink: { appID, event in dispatcher.submit(appID: appID, event: event) }))
        var configuration = MockServerConfiguration.loopback()
        configuration.eventLoopCount = 2
        configuration.extensions = service.extensions
        let server = try MockServer(configuration: configuration)
        service.attach(to: server)
        let port = try server.start().port
        defer { server.stop() }
        let test = PusherTestServer(server: server, service: service, webhooks: WebhookLog())

        func established() throws -> (PusherTestSocket, String) {
            let socket = try test.connect(key: app.key)
            return (socket, try PusherTestSocket.socketID(inEstablished: socket.nextText()))
        }
        let (alice, aliceID) = try established()
        let channelData = #"{"user_id":"alice"}"#
        let auth = PusherSignatures.channelAuth(app: app, socketID: aliceID, channel: "presence-room", channelData: channelData)
        #expect(try alice.subscribe("presence-room", auth: auth, channelData: channelData).contains("subscription_succeeded"))
        let (bob, bobID) = try established()
        #expect(try bob.subscribe("news").contains("subscription_succeeded"))
        let userData = #"{"id":"bob"}"#
        bob.send(#"{"event":"pusher:signin","data":{"auth":"\#(PusherSignatures.userAuth(app: app, socketID: bobID, userData: userData))","user_data":\#(jsonString(userData))}}"#)
        #expect(try bob.nextText().contains("pusher:signin_success"))
        let webhook = try #require(receiver.wait(for: 1)).first
        // Batched (spec §7): member_added and news's channel_occupied may share the body; the first event is this one.
        #expect(webhook?.body.contains(#""events":[{"name":"channel_occupied","channel":"presence-room"}"#) == true)

        let script = FileManager.default.temporaryDirectory.appendingPathComponent("pusher-http-e2e-\(UUID().uuidString).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let arguments = [script.path, String(port), webhook?.body ?? "", webhook?.headers["X-Pusher-Signature"] ?? ""]
        let result = try await PythonTestGate.run { Result { try runPythonScript(python, arguments: arguments, seconds: 120) } }.get()
        #expect(result.status == 0, "\(result.output)")
        let lines = Dictionary(result.output.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let space = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }, uniquingKeysWith: { first, _ in first })
        #expect(lines["trigger"] == "{}")
        #expect(lines["trigger_batch"] == "{}")
        #expect(lines["channels_info"] == #"{"channels": {"presence-room": {"user_count": 1}}}"#)
        #expect(lines["channel_info"] == #"{"occupied": true, "subscription_count": 1}"#)
        #expect(lines["users_info"] == #"{"users": [{"id": "alice"}]}"#)
        #expect(lines["terminate"] == "{}")
        #expect(lines["validate_webhook"]?.hasPrefix(#"[{"name": "channel_occupied", "channel": "presence-room"}"#) == true)
        #expect(lines["validate_forged"] == "None")

        // What the WebSocket clients received from those calls.
        #expect(try bob.nextText() == #"{"event":"greet","data":"{\"text\": \"hi\"}","channel":"news"}"#)
        #expect(try bob.nextText() == #"{"event":"b2","data":"{\"n\": 2}","channel":"news"}"#)
        let close = try bob.nextFrame()
        #expect(close.opcode == .close)
        #expect(Array(close.payload.prefix(2)) == [UInt8(4009 >> 8), UInt8(4009 & 0xFF)])
        #expect(try alice.nextText() == #"{"event":"b1","data":"one","channel":"presence-room"}"#)
        #expect(service.apiJournal.all.contains { $0.terminateForm == .short && $0.status == 200 })
        #expect(service.apiJournal.all.allSatisfy { $0.status == 200 })
    }

    static let script = #"""
import json, sys
import pusher

port, webhook_body, webhook_signature = int(sys.argv[1]), sys.argv[2], sys.argv[3]
client = pusher.Pusher(app_id="3", key="278d425bdf160c739803", secret="7ad3773142a6692b25b8",
                       ssl=False, host="127.0.0.1", port=port, timeout=10)

def show(name, value):
    print(name, json.dumps(value) if not isinstance(value, str) else value, flush=True)

show("trigger", client.trigger("news", "greet", {"text": "hi"}))
show("trigger_batch", client.trigger_batch([{"channel": "presence-room", "name": "b1", "data": "one"},
                                            {"channel": "news", "name": "b2", "data": {"n": 2}}]))
show("channels_info", client.channels_info(prefix_filter="presence-", attributes=["user_count"]))
show("channel_info", client.channel_info("news", attributes=["subscription_count"]))
show("users_info", client.users_info("presence-room"))
show("terminate", client.terminate_user_connections("bob"))
valid = client.validate_webhook("278d425bdf160c739803", webhook_signature, webhook_body)
show("validate_webhook", valid["events"] if valid else None)
forged = client.validate_webhook("278d425bdf160c739803", "0" * 64, webhook_body)
show("validate_forged", str(forged))
"""#
}

