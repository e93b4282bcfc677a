// SPDX-License-Identifier: MIT
import HarnessServerCore
import HarnessTesting
import MockPusher
import PusherServer
import Testing

/// `PusherService` on a `ServerHost` of its own: no PubNub service, no fault layer, no PubNub admin API.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PusherOnlyHostTests {
    @Test func servesPusherAndNothingElse() throws {
        let service = PusherService(apps: [testApp], options: PusherServiceOptions(socketIDs: PusherSocketIDGenerator(seed: 7)))
        var configuration = TransportConfiguration()
        configuration.eventLoopCount = 1
        let host = try ServerHost(configuration: configuration, extensions: service.extensions)
        let port = try host.start().port
        defer { host.stop() }

        // The WebSocket module answers its upgrade.
        let client = try WebSocketTestClient(port: port)
        let (text, head) = try client.handshake(target: "/app/\(testApp.key)?protocol=7&client=js&version=8.4.0")
        #expect(head.status == 101, "\(text)")
        let socket = PusherTestSocket(client: client)
        #expect(try socket.nextText().contains("pusher:connection_established"))

        // Its administrative routes answer loopback peers.
        let admin = try http(port, "GET", "/__admin/pusher/connections")
        #expect(admin.status == 200, "\(admin.bodyText)")

        // PubNub's endpoints and admin API are not there: 404 from the host.
        let time = try http(port, "GET", "/time/0")
        #expect(time.status == 404)
        #expect(time.bodyText == "Not Found\n")
        #expect(try http(port, "GET", "/__admin/health").status == 404)
    }

    private func http(_ port: Int, _ method: String, _ target: String) throws -> HTTPResponseText {
        let client = try BlockingTestClient(port: port)
        client.send("\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        return HTTPResponseText(client.readToEnd().bytes)
    }
}
