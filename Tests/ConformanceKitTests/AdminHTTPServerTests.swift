// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
import Testing
@testable import ConformanceKit

/// `AdminHTTPServer` against a scripted `/__admin/` stub on 127.0.0.1 (port 0) that records
/// every request it gets.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AdminHTTPServerTests {
    static let stub = #"""
    import json, os, sys, threading
    from http.server import HTTPServer, BaseHTTPRequestHandler
    seen = []
    class H(BaseHTTPRequestHandler):
        def log_message(self, *a): pass
        def answer(self, code, body, ctype="application/json"):
            data = body.encode()
            self.send_response(code); self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
        def handle_any(self, method):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
            if self.path == "/__stub/seen":
                return self.answer(200, json.dumps(seen))
            seen.append([method, self.path, body])
            if self.path == "/__admin/listeners": return self.answer(200, '{"port": 4242}')
            if self.path == "/__admin/refused-port": return self.answer(200, '{"port": 4343}')
            if self.path == "/__admin/tls/ca": return self.answer(200, "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n", "application/x-pem-file")
            if self.path.startswith("/__admin/journal/"):
                return self.answer(200, '{"subscribeKey":"sub-1","lastSequence":1,"entries":[{"sequence":1,"arrivalTime":2.5,"connectionID":1,"requestOnConnection":0,"localPort":0,"isTLS":false,"method":"GET","path":"/time/0","query":[{"name":"uuid","value":"u"}],"rawQuery":"uuid=u","headers":[],"endpoint":"time","subscribeKey":"sub-1","uuid":"u"}]}')
            if self.path.startswith("/__admin/plans/bad"): return self.answer(400, '{"error":"rules[0].fault.kind: unknown kind \\"nope\\""}')
            if self.path.startswith("/publish/"): return self.answer(200, '[1,"Sent","17000000000000000"]', "text/javascript")
            self.answer(204, "")
        def do_GET(self): self.handle_any("GET")
        def do_PUT(self): self.handle_any("PUT")
        def do_POST(self): self.handle_any("POST")
        def do_DELETE(self): self.handle_any("DELETE")
    # Exit when the test closes our stdin (or dies): no stub outlives its test.
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    server = HTTPServer(("127.0.0.1", 0), H)
    print(server.server_address[1], flush=True)
    server.timeout = 10
    while True: server.handle_request()
    """#

    /// Starts the stub and reads its port on a dedicated thread (a blocking pipe read).
    static func startStub() async throws -> (Process, Pipe, Int) {
        // Named by content, so repeated runs reuse one file instead of piling them up.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("harness-admin-stub-\(String(stableHash(stub), radix: 16)).py")
        try Data(stub.utf8).write(to: url, options: .atomic)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", url.path]
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        let line: String = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var text = ""
                while !text.contains("\n") {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    text += String(decoding: chunk, as: UTF8.self)
                }
                continuation.resume(returning: text)
            }
        }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            stop(input)
            throw HarnessServerError.invalidAnswer(operation: "stub start", detail: line)
        }
        return (process, input, port)
    }

    /// Closing the stub's stdin ends it (signals may not reach it through interpreter shims).
    static func stop(_ input: Pipe) {
        try? input.fileHandleForWriting.close()
    }

    @Test func controlCallsUseTheDocumentedRoutes() async throws {
        let (_, input, port) = try await Self.startStub()
        defer { Self.stop(input) }
        let server = AdminHTTPServer(address: "127.0.0.1:\(port)")
        try await server.installPlan(json: ["version": 1, "rules": []], subscribeKey: "sub-1")
        try await server.clearPlan(subscribeKey: "sub-1")
        #expect(try await server.openListener(fault: "tls-expired") == 4242)
        try await server.closeListener(port: 4242)
        #expect(try await server.refusedPort() == 4343)
        #expect(try await server.caPEM() == "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n")
        let journal = try await server.journal(subscribeKey: "sub-1")
        #expect(journal == [JournalEntry(method: "GET", path: "/time/0", query: ["uuid": "u"], arrivalTime: 2.5, endpoint: "time", subscribeKey: "sub-1", uuid: "u")])
        try await server.publish(subscribeKey: "sub-1", publishKey: "pub-1", channel: "a b", message: #"{"k":"v"}"#)
        try await server.registerKeyset(subscribeKey: "sub-1", publishKey: "pub-1", secretKey: "sec-1")
        try await server.grant(Grant(channels: ["a b"], authKey: "au", read: true, write: false, ttlMinutes: 7), subscribeKey: "sub-1")
        try await server.reset()

        let seen = try await server.request(method: "GET", path: "/__stub/seen", query: [], body: nil)
        let calls = try JSONValue.parse(seen.body)
        #expect(calls == [
            ["PUT", "/__admin/plans/sub-1", #"{"version":1,"rules":[]}"#],
            ["DELETE", "/__admin/plans/sub-1", ""],
            ["POST", "/__admin/listeners", #"{"fault":"tls-expired"}"#],
            ["DELETE", "/__admin/listeners/4242", ""],
            ["GET", "/__admin/refused-port", ""],
            ["GET", "/__admin/tls/ca", ""],
            ["GET", "/__admin/journal/sub-1", ""],
            ["POST", "/__admin/messages/sub-1", #"{"channel":"a b","messageJSON":"{\"k\":\"v\"}","publisher":"harness-publisher"}"#],
            ["POST", "/__admin/keysets", #"{"subscribeKey":"sub-1","publishKey":"pub-1","secretKey":"sec-1"}"#],
            ["POST", "/__admin/grants/sub-1", #"{"channels":["a b"],"groups":[],"authKeys":["au"],"read":true,"write":false,"manage":false,"ttl":7}"#],
            ["POST", "/__admin/reset", ""],
        ])
    }

    @Test func rejectedPlansAndMissingFeaturesAreTypedErrors() async throws {
        let (_, input, port) = try await Self.startStub()
        defer { Self.stop(input) }
        let server = AdminHTTPServer(address: "127.0.0.1:\(port)")
        await #expect(throws: HarnessServerError.requestFailed(operation: "install plan", detail: #"HTTP 400 {"error":"rules[0].fault.kind: unknown kind \"nope\""}"#)) {
            try await server.installPlan(json: ["rules": [["fault": ["kind": "nope"]]]], subscribeKey: "bad")
        }
        // A port bound without listening (the in-process server keeps it while it runs): refused.
        let local = try InProcessHarnessServer.start()
        let unreachable = AdminHTTPServer(address: "127.0.0.1:\(try await local.refusedPort())")
        await #expect(throws: HarnessServerError.requestFailed(operation: "register keyset", detail: "connect failed: errno 111 (Connection refused)")) {
            try await unreachable.registerKeyset(subscribeKey: "s", publishKey: "p", secretKey: "k")
        }
        await local.shutdown()
        await #expect(throws: HarnessServerError.requestFailed(operation: "grant", detail: "no-port is not HOST:PORT")) {
            try await AdminHTTPServer(address: "no-port").grant(Grant(), subscribeKey: "s")
        }
    }
}
