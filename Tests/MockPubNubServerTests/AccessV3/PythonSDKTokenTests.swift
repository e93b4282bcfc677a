// SPDX-License-Identifier: MIT
import Foundation
import MockPubNubServer
import Synchronization
import Testing

/// The official PubNub Python SDK (PyPI 10.8.0) grants, parses, sets and revokes v3 tokens
/// against an in-process server on a real loopback socket.
///
/// The interpreter is `$PUBNUB_SDK_PYTHON`, else the CI venv (`.ci/run` installs `pubnub` there
/// before the tests), else `python3`; when none can import `pubnub` the test reports itself skipped.
@Suite("Access Manager v3: the official PubNub Python SDK", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PythonSDKTokenTests {
    /// The interpreter (see ``PythonInterpreters``), nil when none can import `pubnub.pubnub`.
    static func python() async -> String? {
        await PythonInterpreters.first(of: PythonInterpreters.candidates(environment: ["PUBNUB_SDK_PYTHON"], systemPython: true),
                                       importing: "pubnub.pubnub")
    }

    @Test(
        .enabled("the PubNub Python SDK (PyPI pubnub) is not installed: set PUBNUB_SDK_PYTHON or run .ci/run, which installs it") { await python() != nil },
        .timeLimit(.minutes(TestTime.limitMinutes(10))))
    func grantParseSetAndRevokeEndToEnd() async throws {
        let python = try #require(await Self.python())
        var configuration = MockServerConfiguration.loopback(tls: false)
        configuration.eventLoopCount = 1
        configuration.keysets = [Keyset(subscribeKey: "py-sub", publishKey: "py-pub", secretKey: "py-secret")]
        let server = try MockServer(configuration: configuration)
        let port = try server.start().port
        defer { server.stop() }

        let script = FileManager.default.temporaryDirectory.appendingPathComponent("pubnub-tokens-\(UUID().uuidString).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let result = try await PythonTestGate.run { Result { try runPythonScript(python, arguments: [script.path, String(port)], seconds: 120) } }.get()
        #expect(result.status == 0, "\(result.output)")
        let lines = Dictionary(result.output.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let space = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }, uniquingKeysWith: { first, _ in first })
        // The token as the live service issues it: base64url CBOR, map(8) with the authorized uuid.
        #expect(lines["token-prefix"] == "qEF2")
        #expect(lines["parsed"] == #"{"authorized_uuid": "alice", "meta": {"tier": "gold"}, "patterns": {"channels": {"^lobby-[0-9]+$": "w"}}, "#
            + #""resources": {"channels": {"room": "rw"}}, "ttl": 15, "version": 2}"#)
        #expect(lines["publish-room"] == "200")
        #expect(lines["publish-lobby-7"] == "200")
        #expect(lines["publish-other"] == "403 Forbidden")
        #expect(lines["revoke"] == "200")
        #expect(lines["publish-after-revoke"] == "403 Token is revoked")
    }

    static let script = #"""
    import json, sys
    from pubnub.exceptions import PubNubException
    from pubnub.models.consumer.v3.channel import Channel
    from pubnub.pnconfiguration import PNConfiguration
    from pubnub.pubnub import PubNub

    port = sys.argv[1]

    def client(user, secret=None):
        config = PNConfiguration()
        config.subscribe_key, config.publish_key, config.secret_key = "py-sub", "py-pub", secret
        config.user_id, config.origin, config.ssl = user, "127.0.0.1:" + port, False
        return PubNub(config)

    def flags(entries):
        names = (("read", "r"), ("write", "w"), ("manage", "m"), ("delete", "d"), ("get", "g"), ("update", "u"), ("join", "j"))
        return {name: "".join(short for flag, short in names if bits.get(flag)) for name, bits in entries.items()}

    def publish(pubnub, channel):
        try:
            return str(pubnub.publish().channel(channel).message("hi").sync().status.status_code)
        except PubNubException as error:
            body = json.loads(error._errormsg) if error._errormsg.startswith("{") else {}
            return ("%s %s" % (error.get_status_code(), body.get("message", ""))).strip()

    admin = client("admin", "py-secret")
    grant = admin.grant_token().ttl(15).authorized_uuid("alice").meta({"tier": "gold"}).channels(
        [Channel.id("room").read().write(), Channel.pattern("^lobby-[0-9]+$").write()])
    token = grant.sync().result.token
    print("token-prefix", token[:4])
    parsed = admin.parse_token(token)
    summary = {"version": parsed["version"], "ttl": parsed["ttl"], "authorized_uuid": parsed["authorized_uuid"],
               "meta": parsed["meta"],
               "resources": {k: flags(v) for k, v in parsed["resources"].items() if v},
               "patterns": {k: flags(v) for k, v in parsed["patterns"].items() if v}}
    print("parsed", json.dumps(summary, sort_keys=True))
    alice = client("alice")
    alice.set_token(token)
    print("publish-room", publish(alice, "room"))
    print("publish-lobby-7", publish(alice, "lobby-7"))
    print("publish-other", publish(alice, "other"))
    print("revoke", admin.revoke_token(token).sync().status.status_code)
    print("publish-after-revoke", publish(alice, "room"))
    """#
}

