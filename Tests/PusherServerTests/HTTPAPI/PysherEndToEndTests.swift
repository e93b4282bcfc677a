// SPDX-License-Identifier: MIT
import Foundation
import HarnessTesting
import MockPubNubServer
import MockPusher
import PusherServer
import Testing

/// pysher (PyPI 1.0.8, a Pusher WebSocket client) and the official `pusher` HTTP library together
/// against the composition `serve` runs: pysher signs a presence subscription itself (its
/// `channel_data` is Python's `json.dumps`, with spaces, so the server must hash the bytes as sent),
/// the library triggers through the signed HTTP API, and the event reaches pysher.
///
/// The interpreter is the one `PusherPythonLibraryTests` uses; when it cannot import both packages
/// the test is reported as skipped with that reason (`.ci/run` installs both).
@Suite("Pusher end to end: pysher and the official pusher library", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PysherEndToEndTests {
    /// The interpreter (see ``PythonInterpreters``), nil when none can import `pusher, pysher`.
    static func python() async -> String? {
        await PythonInterpreters.first(of: PythonInterpreters.candidates(environment: ["PUSHER_HTTP_PYTHON"], systemPython: true),
                                       importing: "pusher, pysher")
    }

    @Test(
        .enabled("pysher and pusher (PyPI) are not both installed: set PUSHER_HTTP_PYTHON or run .ci/run, which installs them") { await python() != nil },
        .timeLimit(.minutes(TestTime.limitMinutes(10))))
    func pysherReceivesWhatTheLibraryTriggers() async throws {
        let python = try #require(await Self.python())
        let service = PusherService(apps: [PusherAppArgument.demo])
        var configuration = MockServerConfiguration.loopback()
        configuration.extensions = service.extensions
        let server = try MockServer(configuration: configuration)
        service.attach(to: server)
        let port = try server.start().port
        defer { server.stop() }

        let script = FileManager.default.temporaryDirectory.appendingPathComponent("pysher-e2e-\(UUID().uuidString).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        // Through the gate: the script runs for seconds, on a thread of its own, not a pool thread.
        let result = try await PythonTestGate.run { Result { try runPythonScript(python, arguments: [script.path, String(port)], seconds: 120) } }.get()
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"users {"users": [{"id": "py-1"}]}"#), "\(result.output)")
        #expect(lines.contains("trigger {}"), "\(result.output)")
        #expect(lines.contains(#"greet {"text": "hi"}"#), "\(result.output)")
        // The server saw pysher's own signature over its spaced channel_data and accepted it.
        let subscribes = service.journal.entries(for: PusherAppArgument.demo.key).compactMap { entry -> String? in
            guard case .text(let text, _) = entry.kind, text.contains("pusher:subscribe") else { return nil }
            return text
        }
        #expect(subscribes.count == 1)
        #expect(subscribes.first?.contains(#"\"user_id\": \"py-1\""#) == true, "\(subscribes)")
    }

    static let script = #"""
import json, logging, os, sys, threading
import pusher, pysher

port = int(sys.argv[1])
KEY, SECRET = "278d425bdf160c739803", "7ad3773142a6692b25b8"
subscribed, greeted, got = threading.Event(), threading.Event(), {}
socket = pysher.Pusher(KEY, secret=SECRET, secure=False, custom_host="127.0.0.1", port=port,
                       user_data={"user_id": "py-1", "user_info": {"name": "Py"}}, log_level=logging.WARNING)

def on_connected(data):
    # Runs on pysher's socket thread: the channel and its bindings exist before any reply is read.
    channel = socket.subscribe("presence-room")
    channel.bind("pusher_internal:subscription_succeeded", lambda data: subscribed.set())
    channel.bind("greet", lambda data: (got.__setitem__("greet", data), greeted.set()))

socket.connection.bind("pusher:connection_established", on_connected)
socket.connect()
if not subscribed.wait(30):
    print("error: no subscription_succeeded within 30 s"); sys.exit(1)
api = pusher.Pusher(app_id="3", key=KEY, secret=SECRET, ssl=False, host="127.0.0.1", port=port, timeout=10)
print("users", json.dumps(api.users_info("presence-room")), flush=True)
print("trigger", json.dumps(api.trigger("presence-room", "greet", {"text": "hi"})), flush=True)
if not greeted.wait(30):
    print("error: no greet event within 30 s"); sys.exit(1)
print("greet", got["greet"], flush=True)
# Everything the test reads is printed. Leave at once, without pysher's `disconnect()` (it joins
# the connection thread, which sometimes took about 100 s to end) or the interpreter's exit (which
# joins pysher's threads as well): the process's end closes the socket.
os._exit(0)
"""#
}
