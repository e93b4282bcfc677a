// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HarnessHTTPClient
import HarnessServerCore

@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct HTTPClientTests {
    @Test func requestBytes() {
        let request = HTTPClientRequest(method: "POST", target: "/p?x=1", body: Array("{}".utf8))
        #expect(String(decoding: request.encode(hostHeader: "h:1", userAgent: "ua"), as: UTF8.self)
            == "POST /p?x=1 HTTP/1.1\r\nHost: h:1\r\nUser-Agent: ua\r\nAccept: */*\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        #expect(String(decoding: HTTPClientRequest(target: "/t").encode(hostHeader: "h", userAgent: "ua", keepAlive: true), as: UTF8.self)
            == "GET /t HTTP/1.1\r\nHost: h\r\nUser-Agent: ua\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test func keepAliveReusesOneConnection() async throws {
        let server = try ScriptedServer(keepAlive: { index, request in ScriptedServer.keepAliveResponse("[\(index),\"\(request.target)\"]") })
        defer { server.stop() }
        let client = try HTTPClient(host: "127.0.0.1", port: server.port, trust: nil, userAgent: "t")
        for n in 0..<3 {
            let response = try await client.perform(HTTPClientRequest(target: "/r\(n)"), timeout: 20).get()
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "[\(n),\"/r\(n)\"]")
        }
        #expect(server.accepted == 1)
        #expect(client.idleConnectionCount == 1)
    }

    @Test func withoutKeepAliveEachRequestHasItsConnection() async throws {
        let server = try ScriptedServer(keepAlive: { index, _ in ScriptedServer.keepAliveResponse("\(index)") })
        defer { server.stop() }
        let client = try HTTPClient(host: "127.0.0.1", port: server.port, trust: nil, userAgent: "t", keepAlive: false)
        for _ in 0..<2 {
            #expect(try await client.perform(HTTPClientRequest(target: "/"), timeout: 20).get().body == Array("0".utf8))
        }
        #expect(server.accepted == 2)
        #expect(client.idleConnectionCount == 0)
    }

    @Test func connectionCloseAnswerIsNotKept() async throws {
        let server = try ScriptedServer(keepAlive: { _, _ in ScriptedServer.keepAliveResponse("{}", extraHeaders: "Connection: close\r\n") })
        defer { server.stop() }
        let client = try HTTPClient(host: "127.0.0.1", port: server.port, trust: nil, userAgent: "t")
        _ = try await client.perform(HTTPClientRequest(target: "/"), timeout: 20).get()
        #expect(client.idleConnectionCount == 0)
    }

    /// The server drops the kept connection after one answer without saying so: the next request
    /// finds it closed and goes out again on a new connection.
    @Test func staleKeptConnectionIsReplaced() async throws {
        let server = try ScriptedServer(keepAlive: { index, _ in index == 0 ? ScriptedServer.keepAliveResponse("\"first\"") : nil })
        defer { server.stop() }
        let client = try HTTPClient(host: "127.0.0.1", port: server.port, trust: nil, userAgent: "t")
        for _ in 0..<3 {
            let response = try await client.perform(HTTPClientRequest(target: "/"), timeout: 20).get()
            #expect(response.body == Array("\"first\"".utf8))
        }
        #expect(server.accepted == 3)
    }

    @Test func chunkedBodyThenReuse() async throws {
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n".utf8)
        let server = try ScriptedServer(keepAlive: { _, _ in chunked })
        defer { server.stop() }
        let client = try HTTPClient(host: "127.0.0.1", port: server.port, trust: nil, userAgent: "t")
        for _ in 0..<2 {
            #expect(try await client.perform(HTTPClientRequest(target: "/"), timeout: 20).get().body == Array("abcde".utf8))
        }
        #expect(server.accepted == 1)
    }

    @Test func deadlinePassesWhileTheServerIsSilent() async throws {
        let server = try ScriptedServer(keepAlive: { _, _ in
            Thread.sleep(forTimeInterval: 3)  // holds the answer past the client's deadline
            return nil
        })
        defer { server.stop() }
        let client = try HTTPClient(host: "127.0.0.1", port: server.port, trust: nil, userAgent: "t")
        let outcome = await client.perform(HTTPClientRequest(target: "/"), timeout: 0.3)
        #expect(outcome.failureValue == .timedOut(phase: "receive"))
    }

    @Test func refusedPortIsAConnectFailure() async throws {
        let server = try TimeHost.make(tls: false)
        try server.start()
        let refused = try server.refusedPort().port
        await server.shutdown()
        let client = try HTTPClient(host: "127.0.0.1", port: refused, trust: nil, userAgent: "t")
        guard case .connectFailed(let code, _)? = await client.perform(HTTPClientRequest(target: "/"), timeout: 20).failureValue else {
            Issue.record("expected connectFailed")
            return
        }
        #expect(code == ECONNREFUSED)
    }

    @Test func tlsKeepAliveAgainstAServerHost() async throws {
        let server = try TimeHost.make(tls: true)
        try server.start()
        let pem = server.certificateAuthorityPEM
        let port = try #require(server.tlsAddress?.port)
        let client = try HTTPClient(host: "127.0.0.1", port: port, trust: .pem(pem), userAgent: "t")
        for _ in 0..<2 {
            let response = try await client.perform(HTTPClientRequest(target: "/time/0"), timeout: 20).get()
            #expect(response.statusCode == 200)
            #expect(response.body.first == UInt8(ascii: "["))
        }
        #expect(client.idleConnectionCount == 1)
        client.closeIdleConnections()
        await server.shutdown()
    }

    @Test func untrustedCertificateIsReportedAsSuch() async throws {
        let server = try TimeHost.make(tls: true)
        try server.start()
        let port = try #require(server.tlsAddress?.port)
        let client = try HTTPClient(host: "127.0.0.1", port: port, trust: .system, userAgent: "t")
        let outcome = await client.perform(HTTPClientRequest(target: "/time/0"), timeout: 20)
        guard case .tlsUntrustedCertificate? = outcome.failureValue else {
            Issue.record("expected an untrusted certificate, got \(outcome)")
            await server.shutdown()
            return
        }
        await server.shutdown()
    }
}

/// A host on free loopback ports whose only route is `GET /time/0` → `[1]`.
enum TimeHost {
    struct TimeHandler: RequestHandler {
        func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
            responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array("[1]".utf8))))
        }
    }

    static func make(tls: Bool) throws -> ServerHost {
        var configuration = TransportConfiguration()
        configuration.tlsPort = tls ? 0 : nil
        return try ServerHost(configuration: configuration) { _ in HostRoutes(routes: [HostRoute(.exact("/time/0"), handler: TimeHandler())]) }
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
