// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Every kind of bad input over a real socket: exact bytes, and the server keeps serving.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EndToEndBadInputTests {
    static let balancer400 = "{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Balancer\",\"status\":400}"
    static let reserved = "{\"status\": 400, \"message\": \"Reserved character in input parameters.\", \"service\": \"channel-registry\", \"error\": true}"

    /// Sends raw bytes on a fresh connection, reads to the end, then checks the server still answers `/time/0`.
    /// The answer comes without the fields every answer carries for browsers (checked: the
    /// fallback rule's, as the request did not parse).
    private func exchange(_ server: EndToEndServer, _ bytes: String) throws -> String {
        let client = try server.connect()
        client.send(bytes)
        let answer = withoutCrossOrigin(String(decoding: client.readToEnd().bytes, as: UTF8.self), "GET", "/")
        let (status, body) = try server.call("/time/0")
        #expect(status == 200 && body.count == 19, "the server stopped serving: \(body)")
        return answer
    }

    @Test func malformedRequestLineAndHeadersGetBalancer400() throws {
        let server = try EndToEndServer()
        let badRequest = pubNubResponse(400, "{\"message\":\"Bad Request\",\"error\":true,\"service\":\"Balancer\",\"status\":400}")
        #expect(try exchange(server, "GARBAGE\r\n\r\n") == badRequest)
        #expect(try exchange(server, "GET /time/0 HTTP/1.1\r\nNo colon here\r\n\r\n") == badRequest)
        #expect(try exchange(server, "GET /time/0 HTTP/1.1\r\nContent-Length: 12x\r\n\r\n") == badRequest)
    }

    @Test func oversizedTargetHeadersAndBodyGet414And431And413() throws {
        let server = try EndToEndServer()
        let longTarget = "/publish/demo/demo/0/ch/0/" + String(repeating: "1", count: 40_000)
        #expect(try exchange(server, "GET \(longTarget) HTTP/1.1\r\n\r\n") == pubNubResponse(
            414, "{\"status\":414,\"service\":\"Balancer\",\"error\":true,\"message\":\"Request URI Too Long\"}\n",
            contentType: "text/javascript; charset=UTF-8"))
        let header = "X-Big: " + String(repeating: "a", count: 20_000)
        #expect(try exchange(server, "GET /time/0 HTTP/1.1\r\n\(header)\r\n\r\n") == pubNubResponse(
            431, "{\"message\":\"Request Header Fields Too Large\",\"error\":true,\"service\":\"Balancer\",\"status\":431}"))
        #expect(try exchange(server, "POST /publish/demo/demo/0/ch/0 HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n")
            == pubNubResponse(413, "{\"message\":\"Request Entity Too Large\",\"error\":true,\"service\":\"Balancer\",\"status\":413}"))
    }

    @Test func badEscapesNonNumericTimetokensReservedNamesAndUnknownPaths() throws {
        let server = try EndToEndServer()
        #expect(try server.raw("/publish/demo/demo/0/ch/0/%ZZ") == pubNubResponse(400, Self.balancer400))
        #expect(try server.raw("/v2/subscribe/demo/ch/0?tt=12ab") == pubNubResponse(400, Self.balancer400))
        #expect(try server.raw("/v2/history/sub-key/demo/channel/ch?start=x1") == pubNubResponse(400, Self.balancer400))
        #expect(try server.raw("/publish/demo/demo/0/a%2Cb/0/1") == pubNubResponse(400, Self.reserved))
        #expect(try server.raw("/v2/subscribe/demo/a*/0?tt=0") == pubNubResponse(400, Self.reserved))
        #expect(try server.raw("/nope/x") == pubNubResponse(
            404, "{\"message\": \"Not found: '/nope/x'\",\"error\": 1,\"service\": \"Presence\"}"))
    }

    @Test func invalidPublishJSONGets400WithATimetoken() throws {
        let server = try EndToEndServer()
        for (target, method, body) in [("/publish/demo/demo/0/ch/0/%7Bnope", "GET", nil), ("/publish/demo/demo/0/ch/0", "POST", "[1,]")] {
            let (status, text) = try server.call(target, method: method, body: body)
            #expect(status == 400)
            #expect(text.hasPrefix("[0,\"Invalid JSON\",\"") && text.hasSuffix("\"]"), "\(text)")
            let tt = UInt64(text.dropFirst(19).dropLast(2))
            #expect(tt.map { String($0).count } == 17)
        }
        #expect(try server.call("/v2/history/sub-key/demo/channel/ch").1 == "[[],0,0]")
    }

    @Test func clientsVanishingMidLongPollAndMidRequestLeakNothing() throws {
        let server = try EndToEndServer()
        // The server's own sockets only (listeners and accepted connections): tests running in
        // parallel open and close descriptors of their own meanwhile.
        let ports = Set([server.server.address?.port, server.server.tlsAddress?.port].compactMap { $0 })
        let before = socketDescriptors(localPorts: ports)
        for round in 0..<20 {
            let poller = try server.connect()
            poller.send(EndToEndServer.request("/v2/subscribe/demo/gone\(round)/0?tt=0&uuid=u"))
            let handshake = try #require(poller.readResponse())
            let tt = try #require(EndToEndServer.cursor(EndToEndServer.split(handshake).1))
            poller.send(EndToEndServer.request("/v2/subscribe/demo/gone\(round)/0?tt=\(tt)&uuid=u"))
            if round.isMultiple(of: 2) { poller.reset() } else { poller.shutdownWrite() }
            let partial = try server.connect()
            partial.send("POST /publish/demo/demo/0/ch/0 HTTP/1.1\r\nContent-Length: 50\r\n\r\n[1,")
            partial.reset()
        }
        // Every socket the server accepted is closed again: the counter returns to where it was.
        var settled = false
        for _ in 0..<200 {
            if server.server.openConnectionCount == 0 { settled = true; break }
            var pfd = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&pfd, 0, 10)
        }
        #expect(settled, "open connections: \(server.server.openConnectionCount)")
        #expect(socketDescriptors(localPorts: ports) == before)
        // A publish to a channel whose long-poll vanished is still fine, and others are served.
        try server.publish("gone0", "1")
        #expect(try server.call("/time/0").0 == 200)
    }
}
