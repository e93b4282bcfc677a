// SPDX-License-Identifier: MIT
import HarnessTesting
import MockPubNubServer
import MockPusher
import PusherServer
import Synchronization
import Testing

/// The HTTP API on a real loopback listener, with exact request bytes.
@Suite("Pusher HTTP API: on the server's listener", .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherHTTPAPIExtensionTests {
    private func withAPIServer(_ body: (Int, PusherAPIBed, PusherAPIJournal, PerformedActions) throws -> Void) throws {
        var bed = PusherAPIBed()
        bed.unixTime = 1_353_088_179
        let journal = PusherAPIJournal(capacity: 2)
        let performed = PerformedActions()
        let unixTime = bed.unixTime
        var configuration = MockServerConfiguration.loopback()
        configuration.eventLoopCount = 1
        configuration.extensions = [
            PusherHTTPAPIExtension(core: bed.core, journal: journal, unixTime: { unixTime }, perform: { actions in performed.append(actions) })
        ]
        let server = try MockServer(configuration: configuration)
        let port = try server.start().port
        defer { server.stop() }
        try body(port, bed, journal, performed)
    }

    private func exchange(_ port: Int, _ request: String) throws -> HTTPResponseText {
        let client = try BlockingTestClient(port: port)
        client.send(request)
        return HTTPResponseText(try #require(client.readResponse()))
    }

    /// Values arrive percent-encoded and are signed decoded; a PubNub path is still the PubNub service's.
    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5)))) func rebuildsTheSignedQueryFromDecodedValues() throws {
        try withAPIServer { port, bed, journal, _ in
            bed.connect(1)
            bed.subscribe(1, "presence-x", userID: "9")
            let signed = PusherRequestAuthentication.signedQuery(
                app: vectorApp, method: "GET", path: "/apps/3/channels",
                parameters: [QueryItem(name: "filter_by_prefix", value: "presence-"), QueryItem(name: "info", value: "user_count")],
                body: [], timestamp: bed.unixTime)
            let query = signed.map { "\($0.name)=\($0.value)" }.joined(separator: "&").replacingUnderscoreInUserCount()
            let response = try exchange(port, "GET /apps/3/channels?\(query) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.bodyText == #"{"channels":{"presence-x":{"user_count":1}}}"#)
            let unsigned = try exchange(port, "POST /apps/3/events HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
            #expect(unsigned.status == 400)
            #expect(unsigned.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(unsigned.bodyText == "Unknown auth_key")
            let unknown = try exchange(port, "GET /apps/3/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(unknown.status == 404)
            #expect(unknown.bodyText == "404 NOT FOUND\n")
            #expect(journal.all.map(\.status) == [400, 404])  // capacity 2: the oldest entry is gone
        }
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5)))) func triggerActionsGoToPerform() throws {
        try withAPIServer { port, bed, _, performed in
            bed.connect(1)
            bed.subscribe(1, "project-3")
            let request = bed.signed("POST", "/apps/3/events", body: vectorBody)
            let query = (request.query ?? []).map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let response = try exchange(
                port, "POST /apps/3/events?\(query) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(vectorBody.utf8.count)\r\nConnection: close\r\n\r\n\(vectorBody)")
            #expect(response.status == 200)
            #expect(response.bodyText == "{}")
            #expect(messages(performed.all, to: 1) == [#"{"event":"foo","data":"{\"some\":\"data\"}","channel":"project-3"}"#])
        }
    }
}

extension String {
    /// `info=user_count` with the underscore and the value percent-encoded, as some clients send it.
    fileprivate func replacingUnderscoreInUserCount() -> String {
        split(separator: "&").map { $0 == "info=user_count" ? "info=user%5Fcount" : String($0) }.joined(separator: "&")
    }
}

/// The actions an extension handed to `perform`.
final class PerformedActions: Sendable {
    private let actions = Mutex<[PusherAction]>([])
    func append(_ more: [PusherAction]) { actions.withLock { $0 += more } }
    var all: [PusherAction] { actions.withLock { $0 } }
}
