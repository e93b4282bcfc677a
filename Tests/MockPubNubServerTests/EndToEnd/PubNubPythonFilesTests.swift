// SPDX-License-Identifier: MIT
import Foundation
import HarnessTesting
import Synchronization
import Testing
@testable import MockPubNubServer

/// The official PubNub Python SDK's file API (`send_file`, `list_files`, `get_file_url`,
/// `download_file`, `delete_file`) against the in-process server over loopback, plain and encrypted.
///
/// The interpreter is `$PUBNUB_PYTHON`, else the CI venv (`.ci/run` installs `pubnub` 10.8.0 there),
/// else `python3`; when none of them can import `pubnub` the test is reported as skipped with that reason.
@Suite("Files: the official PubNub Python SDK", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PubNubPythonFilesTests {
    /// The interpreter (see ``PythonInterpreters``), nil when none can import `pubnub.pubnub`.
    static func python() async -> String? {
        await PythonInterpreters.first(of: PythonInterpreters.candidates(environment: ["PUBNUB_PYTHON"], systemPython: true),
                                       importing: "pubnub.pubnub")
    }

    @Test(
        .enabled("the pubnub SDK (PyPI) is not installed: set PUBNUB_PYTHON or run .ci/run, which installs it") { await python() != nil },
        .timeLimit(.minutes(TestTime.limitMinutes(10))))
    func sendListDownloadAndDeleteWithTheOfficialSDK() async throws {
        let python = try #require(await Self.python())
        let server = try EndToEndServer()
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("pubnub-files-e2e-\(UUID().uuidString).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        // The script writes its findings to a file of its own: the SDK's threads may print to
        // stdout and stderr at any time.
        let findings = FileManager.default.temporaryDirectory.appendingPathComponent("pubnub-files-e2e-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: findings) }
        let arguments = [script.path, String(server.port), findings.path]
        let result = try await PythonTestGate.run { Result { try runPythonScript(python, arguments: arguments, seconds: 90) } }.get()
        #expect(result.status == 0, "\(result.output)")
        let written = (try? String(contentsOf: findings, encoding: .utf8)) ?? ""
        let lines = Dictionary(written.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let space = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }, uniquingKeysWith: { first, _ in first })
        #expect(lines["sent"] == "king_arthur.txt")
        #expect(lines["listed"] == "king_arthur.txt 19")
        #expect(lines["url"]?.hasPrefix("http://127.0.0.1:\(server.port)/file-storage/fk/docs/") == true)
        #expect(lines["downloaded"] == "Knights who say Ni!")
        #expect(lines["event"] == #"king_arthur.txt {"note": "hi"}"#)
        #expect(lines["encrypted_differs"] == "True")
        #expect(lines["encrypted_downloaded"] == "secret bytes")
        #expect(lines["deleted"] == "200")
        #expect(lines["after_delete"] == "1")
        // What the SDK put on the wire, as the service saw it: the storage got the upload, and the
        // encrypted file is stored as the CryptoModule's PNED format.
        let stored = server.server.service.fileSummaries(subscribeKey: "fk")
        #expect(stored.map(\.name).sorted() == ["vault.bin"])
        let journal = server.server.journal(subscribeKey: "fk")
        #expect(journal.filter { $0.endpoint == .storageUpload }.count == 2)
        #expect(journal.contains { $0.endpoint == .publishFile && $0.query.contains { $0.name == "custom_message_type" && $0.value == "file-note" } })
    }

    static let script = #"""
import json, sys, threading
from pubnub.pnconfiguration import PNConfiguration
from pubnub.pubnub import PubNub
from pubnub.callbacks import SubscribeCallback
from pubnub.enums import PNStatusCategory

findings = open(sys.argv[2], "w")

def show(name, value):
    findings.write("%s %s\n" % (name, value))
    findings.flush()

def client(cipher=None):
    config = PNConfiguration()
    config.subscribe_key = "fk"
    config.publish_key = "fk"
    config.user_id = "py-files"
    config.origin = "127.0.0.1:" + sys.argv[1]
    config.ssl = False
    config.daemon = True
    if cipher:
        from pubnub.crypto import AesCbcCryptoModule
        config.cipher_key = cipher
        config.crypto_module = AesCbcCryptoModule(config)
    return PubNub(config)

class Listener(SubscribeCallback):
    def __init__(self):
        self.connected = threading.Event()
        self.got = threading.Event()
        self.received = None
    def status(self, pubnub, status):
        if status.category == PNStatusCategory.PNConnectedCategory:
            self.connected.set()
    def file(self, pubnub, message):
        self.received = message
        self.got.set()

pn = client()
listener = Listener()
pn.add_listener(listener)
pn.subscribe().channels(["docs"]).execute()
if not listener.connected.wait(20):
    sys.exit("no connected status")
sent = pn.send_file().channel("docs").file_name("king_arthur.txt").file_object(b"Knights who say Ni!") \
    .message({"note": "hi"}).custom_message_type("file-note").should_store(True).sync()
show("sent", sent.result.name)
if not listener.got.wait(20):
    sys.exit("no file event")
show("event", "%s %s" % (listener.received.file_name, json.dumps(listener.received.message)))
files = pn.list_files().channel("docs").sync().result.data
show("listed", " ".join("%s %s" % (f["name"], f["size"]) for f in files))
file_id = sent.result.file_id
show("url", pn.get_file_url().channel("docs").file_id(file_id).file_name("king_arthur.txt").sync().result.file_url)
data = pn.download_file().channel("docs").file_id(file_id).file_name("king_arthur.txt").sync().result.data
show("downloaded", data.decode("utf-8"))
show("deleted", pn.delete_file().channel("docs").file_id(file_id).file_name("king_arthur.txt").sync().result.status)

secure = client("enigma")
vault = secure.send_file().channel("docs").file_name("vault.bin").file_object(b"secret bytes").sync()
raw = pn.download_file().channel("docs").file_id(vault.result.file_id).file_name("vault.bin").sync().result.data
show("encrypted_differs", str(raw != b"secret bytes" and raw[:4] == b"PNED"))
plain = secure.download_file().channel("docs").file_id(vault.result.file_id).file_name("vault.bin").sync().result.data
show("encrypted_downloaded", plain.decode("utf-8"))
show("after_delete", str(len(pn.list_files().channel("docs").sync().result.data)))
pn.unsubscribe_all()
pn.stop()
secure.stop()
"""#
}
