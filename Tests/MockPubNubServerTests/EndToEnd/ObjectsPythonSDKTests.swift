// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing
@testable import MockPubNubServer

/// The official PubNub Python SDK's App Context API (`set_uuid_metadata`, `set_memberships`,
/// `get_memberships`) against the mock server on a real loopback socket.
///
/// The interpreter is `$PUBNUB_PYTHON`, else the CI venv (`.ci/run` installs `pubnub` there),
/// else `python3`; when none of them can import `pubnub` the test is reported as skipped with that reason.
@Suite("App Context: the official PubNub Python SDK", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct ObjectsPythonSDKTests {
    /// The interpreter (see ``PythonInterpreters``), nil when none can import `pubnub.pubnub`.
    static func python() async -> String? {
        await PythonInterpreters.first(of: PythonInterpreters.candidates(environment: ["PUBNUB_PYTHON"], systemPython: true),
                                       importing: "pubnub.pubnub")
    }

    static let script = #"""
import json, sys
from pubnub.pnconfiguration import PNConfiguration
from pubnub.pubnub import PubNub
from pubnub.models.consumer.objects_v2.memberships import PNChannelMembership
from pubnub.models.consumer.objects_v2.common import MembershipIncludes

config = PNConfiguration()
config.subscribe_key, config.publish_key, config.user_id = "sub-py", "pub-py", "py-user"
config.origin, config.ssl = "127.0.0.1:" + sys.argv[1], False
pubnub = PubNub(config)
out = lambda key, value: print(key, json.dumps(value, sort_keys=True))
user = pubnub.set_uuid_metadata().uuid("py-user").set_name("Pat").email("pat@example.com") \
    .custom({"team": "blue"}).include_custom(True).sync().result.data
out("set_uuid", {k: user[k] for k in ("id", "name", "email", "custom", "status", "type")})
out("etag", len(user["eTag"]))
pubnub.set_channel_metadata().channel("py-room").set_name("Room").custom({"public": True}).sync()
memberships = pubnub.set_memberships().uuid("py-user").channel_memberships(
    [PNChannelMembership("py-room", custom={"role": "admin"}, status="on"), PNChannelMembership("py-lobby")]).sync().result
out("set_memberships", [m["channel"]["id"] for m in memberships.data])
page = pubnub.get_memberships().uuid("py-user").include(
    MembershipIncludes(custom=True, status=True, channel=True, channel_custom=True)).include_total_count(True).limit(1).sync().result
out("get_memberships", {"data": page.data[0]["channel"], "custom": page.data[0]["custom"], "total": page.total_count,
                        "next": page.next.hash})
second = pubnub.get_memberships().uuid("py-user").include(MembershipIncludes(custom=True, status=True, channel=True, channel_custom=True)) \
    .limit(1).page(page.next).sync().result
out("second_page", {"channel": second.data[0]["channel"], "status": second.data[0]["status"], "prev": second.prev.hash})
pubnub.stop()
"""#

    @Test(
        .enabled("the pubnub SDK (PyPI) is not installed: set PUBNUB_PYTHON or run .ci/run, which installs it") { await python() != nil },
        .timeLimit(.minutes(TestTime.limitMinutes(10))))
    func setUUIDMetadataAndGetMemberships() async throws {
        let python = try #require(await Self.python())
        let server = try MockServer(configuration: .loopback())
        let port = try server.start().port
        defer { server.stop() }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("pubnub-objects-e2e-\(UUID().uuidString).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let result = try await PythonTestGate.run { Result { try runPythonScript(python, arguments: [script.path, String(port)], seconds: 90) } }.get()
        #expect(result.status == 0, "\(result.output)")
        let lines = Dictionary(result.output.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let space = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }, uniquingKeysWith: { first, _ in first })
        #expect(lines["set_uuid"] == #"{"custom": {"team": "blue"}, "email": "pat@example.com", "id": "py-user", "name": "Pat", "status": null, "type": null}"#)
        #expect(lines["etag"] == "32")
        #expect(lines["set_memberships"] == #"["py-lobby", "py-room"]"#)
        #expect(lines["get_memberships"] == #"{"custom": null, "data": {"id": "py-lobby"}, "next": "MQ", "total": 2}"#)
        #expect(lines["second_page"] == #"{"channel": {"custom": {"public": true}, "description": null, "eTag": "\#(channelETag(server))", "id": "py-room", "name": "Room", "updated": "\#(channelUpdated(server))"}, "prev": "MQ", "status": "on"}"#)
        let state = server.service.objectsSnapshot(subscribeKey: "sub-py")
        #expect(state["memberships"]?.arrayValue?.count == 2 && state["uuids"]?[0]?["email"] == .string("pat@example.com"))
    }

    private func channelETag(_ server: MockServer) -> String {
        server.service.objectsSnapshot(subscribeKey: "sub-py")["channels"]?[0]?["eTag"]?.stringValue ?? ""
    }

    private func channelUpdated(_ server: MockServer) -> String {
        server.service.objectsSnapshot(subscribeKey: "sub-py")["channels"]?[0]?["updated"]?.stringValue ?? ""
    }
}
