// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing
@testable import MockPubNubServer

/// The official PubNub Python SDK's push registration, filter expression and wildcard
/// subscription against an in-process server over a real loopback socket.
///
/// The interpreter is `$PUBNUB_PYTHON`, else the CI venv (`.ci/run` installs `pubnub` there);
/// when neither can import `pubnub` the test is reported as skipped with that reason.
@Suite("PubNub: the official Python SDK's push, filter and wildcard APIs", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PubNubPythonSDKTests {
    /// The interpreter (see ``PythonInterpreters``), nil when none can import `pubnub`.
    static func python() async -> String? {
        await PythonInterpreters.first(of: PythonInterpreters.candidates(environment: ["PUBNUB_PYTHON"], systemPython: false),
                                       importing: "pubnub")
    }

    @Test(
        .enabled("the PubNub Python SDK is not installed: set PUBNUB_PYTHON or run .ci/run, which installs it") { await python() != nil },
        .timeLimit(.minutes(TestTime.limitMinutes(10))))
    func officialSDKRegistersPushFiltersAndSubscribesToAWildcard() async throws {
        let python = try #require(await Self.python())
        let server = try EndToEndServer()
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("pubnub-sdk-e2e-\(UUID().uuidString).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let budget = TestTime.budget(90)
        let arguments = [script.path, String(server.port)]
        let result = try await PythonTestGate.run { Result { try runPythonScript(python, arguments: arguments, seconds: budget) } }.get()
        #expect(result.status == 0, "\(result.output)")
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        #expect(lines.contains("push_add ok"), "\(result.output)")
        #expect(lines.contains("push_list py-news,py-sport"), "\(result.output)")
        #expect(lines.contains("push_list_after_remove py-sport"), "\(result.output)")
        #expect(lines.contains("message py.b py.* kept chat-text"), "\(result.output)")
        #expect(!lines.contains { $0.contains("dropped") }, "\(result.output)")
        // The SDK's requests as the server saw them.
        let journal = server.server.journal(subscribeKey: "sub-py")
        #expect(journal.contains { $0.endpoint == .push && $0.query.contains { $0.name == "type" && $0.value == "apns" } })
        #expect(journal.contains { $0.endpoint == .subscribe && $0.path.contains("/py.") && $0.query.contains { $0.name == "filter-expr" } })
        #expect(journal.contains { $0.method == "PUSH" && $0.path == "/push/apns/00ff00ff" })
    }

    static let script = #"""
import os, sys, threading
from pubnub.pnconfiguration import PNConfiguration
from pubnub.pubnub import PubNub
from pubnub.callbacks import SubscribeCallback
from pubnub.enums import PNPushType, PNStatusCategory

config = PNConfiguration()
config.subscribe_key = "sub-py"
config.publish_key = "pub-py"
config.user_id = "py-listener"
config.origin = "127.0.0.1:" + sys.argv[1]
config.ssl = False
config.filter_expression = "meta.keep == 1"
pubnub = PubNub(config)

pubnub.add_channels_to_push().channels(["py-sport", "py-news"]).device_id("00ff00ff").push_type(PNPushType.APNS).sync()
print("push_add ok", flush=True)
listed = pubnub.list_push_channels().device_id("00ff00ff").push_type(PNPushType.APNS).sync()
print("push_list " + ",".join(listed.result.channels), flush=True)
pubnub.remove_channels_from_push().channels(["py-news"]).device_id("00ff00ff").push_type(PNPushType.APNS).sync()
listed = pubnub.list_push_channels().device_id("00ff00ff").push_type(PNPushType.APNS).sync()
print("push_list_after_remove " + ",".join(listed.result.channels), flush=True)

connected, received = threading.Event(), threading.Event()
class Listener(SubscribeCallback):
    def status(self, pn, status):
        if status.category == PNStatusCategory.PNConnectedCategory:
            connected.set()
    def message(self, pn, message):
        print("message %s %s %s %s" % (message.channel, message.subscription, message.message,
                                        getattr(message, "custom_message_type", None)), flush=True)
        received.set()
    def presence(self, pn, presence):
        pass

pubnub.add_listener(Listener())
pubnub.subscribe().channels(["py.*"]).execute()
if not connected.wait(30):
    print("not connected", flush=True); os._exit(2)
config2 = PNConfiguration()
config2.subscribe_key, config2.publish_key, config2.user_id = "sub-py", "pub-py", "py-publisher"
config2.origin, config2.ssl = config.origin, False
publisher = PubNub(config2)
publisher.publish().channel("py.a").message("dropped").meta({"keep": 0}).sync()
publisher.publish().channel("py-sport").message({"pn_apns": {"aps": {"alert": "goal"}}}).sync()
publisher.publish().channel("py.b").message("kept").meta({"keep": 1}).custom_message_type("chat-text").sync()
ok = received.wait(30)
pubnub.unsubscribe_all()
# The SDK's subscribe thread may sit in a long-poll; leave without waiting for it.
sys.stdout.flush()
os._exit(0 if ok else 3)
"""#
}

