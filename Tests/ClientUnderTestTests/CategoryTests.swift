// SPDX-License-Identifier: MIT
import Testing
@testable import ClientUnderTest
import HarnessHTTPClient

/// Every HTTP-level and transport-level condition → its status category, against real loopback sockets.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct CategoryTests {
    private func timeStatus(_ reply: ScriptedReply, timeout: Double = TestTime.budget(5)) async throws -> PNStatus {
        let server = try ScriptedServer { _ in reply }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) { $0.nonSubscribeRequestTimeout = timeout }
        do throws(PNStatus) {
            let result = try await client.time()
            Issue.record("expected a status, got \(result)")
            throw PNStatus(category: .unknown, operation: .time)
        } catch {
            return error
        }
    }

    @Test func successParsesTime() async throws {
        let server = try ScriptedServer { _ in .http(200, "[17000000000000001]") }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        #expect(try await client.time().timetoken == 17_000_000_000_000_001)
        let seen = try #require(server.journal.items.first)
        #expect(seen.target == "/time/0?uuid=tester&pnsdk=PubNub-Swift-Linux%2F1.0.0")
        #expect(seen.headers["host"] == "127.0.0.1:\(server.port)")
    }

    @Test func chunkedResponseIsDecoded() async throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[1700\r\n8\r\n0000000]\r\n0\r\n\r\n"
        let server = try ScriptedServer { _ in .bytes(Array(raw.utf8)) }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        #expect(try await client.time().timetoken == 17_000_000_000)
    }

    @Test(arguments: [
        (400, #"[0,"Invalid Key","14820999375199241"]"#, PNStatusCategory.badRequest, "Invalid Key"),
        (404, #"{"message": "Not found","error": 1,"service": "Presence"}"#, .resourceNotFound, "Not found"),
        (414, #"{"message":"Request URI Too Long","error":true,"service":"Balancer","status":414}"#, .requestURITooLong, "Request URI Too Long"),
        (481, "{}", .malformedFilterExpression, "HTTP 481"),
        (500, "{}", .unknown, "HTTP 500"),
        (429, #"{"status":429,"error":{"message":"slow down"}}"#, .unknown, "slow down"),
    ])
    func httpErrorStatuses(code: Int, body: String, category: PNStatusCategory, information: String) async throws {
        let status = try await timeStatus(.http(code, body))
        #expect(status.category == category)
        #expect(status.statusCode == code)
        #expect(status.isError)
        #expect(status.operation == .time)
        #expect(status.errorData?.information == information)
    }

    @Test func accessDeniedNamesChannelsAndGroups() async throws {
        let body = #"{"message":"Forbidden","payload":{"channels":["a","b"],"channel-groups":[":g"]},"error":true,"service":"Access Manager","status":403}"#
        let status = try await timeStatus(.http(403, body))
        #expect(status.category == .accessDenied)
        #expect(status.statusCode == 403)
        #expect(status.errorData?.channels == ["a", "b"])
        #expect(status.errorData?.channelGroups == [":g"])
        #expect(status.errorData?.information == "Forbidden")
    }

    @Test func htmlBodyIsMalformed() async throws {
        let status = try await timeStatus(.http(200, "<html>portal</html>", contentType: "text/html"))
        #expect(status.category == .malformedResponse)
        #expect(status.statusCode == 200)
    }

    @Test func nonJSONBodyWithJSONTypeIsMalformed() async throws {
        let status = try await timeStatus(.http(200, "not json"))
        #expect(status.category == .malformedResponse)
        #expect(status.errorData?.information == "body is not JSON")
    }

    @Test func wrongShapeIsMalformed() async throws {
        let status = try await timeStatus(.http(200, #"{"t":1}"#))
        #expect(status.category == .malformedResponse)
        #expect(status.errorData?.information == "unexpected response shape")
    }

    @Test func resetIsNetworkIssues() async throws {
        let status = try await timeStatus(.reset)
        #expect(status.category == .networkIssues)
        #expect(status.statusCode == 0)
        #expect(status.errorData?.transportError == .connectionLost(errno: 104, "Connection reset by peer"))
    }

    @Test func closeBeforeResponseIsNetworkIssues() async throws {
        let status = try await timeStatus(.close)
        #expect(status.category == .networkIssues)
        #expect(status.errorData?.transportError == .closedBeforeResponse(receivedBytes: 0))
    }

    @Test func truncatedBodyIsNetworkIssues() async throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n[1700"
        let status = try await timeStatus(.bytes(Array(raw.utf8)))
        #expect(status.category == .networkIssues)
    }

    @Test func garbageIsMalformed() async throws {
        let status = try await timeStatus(.bytes(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)))
        #expect(status.category == .malformedResponse)
    }

    @Test func refusedIsNetworkIssues() async throws {
        let refusing = RefusingPort()
        let client = try makeClient(origin: "127.0.0.1:\(refusing.port)")
        do throws(PNStatus) {
            _ = try await client.time()
            Issue.record("expected a status")
        } catch {
            #expect(error.category == .networkIssues)
            #expect(error.errorData?.transportError == .connectFailed(errno: 111, "Connection refused"))
        }
    }

    @Test func stallIsTimeout() async throws {
        let status = try await timeStatus(.stall, timeout: 0.3)
        #expect(status.category == .timeout)
        #expect(status.errorData?.transportError == .timedOut(phase: "receive"))
    }

    @Test func cancellationIsCancelled() async throws {
        let server = try ScriptedServer { _ in .stall }
        defer { server.stop() }
        let transport = try HTTPTransport(host: "127.0.0.1", port: server.port, trustedCA: nil, userAgent: "t")
        let cancel = CancellationSignal()
        async let outcome = transport.perform(HTTPClientRequest(target: "/time/0"), timeout: TestTime.budget(60), cancel: cancel)
        _ = await server.journal.wait(count: 1)
        cancel.cancel()
        let result = await outcome
        #expect(result == .failure(.cancelled))
        #expect(TransportError.cancelled.category == .cancelled)
    }

    @Test func cancelAllRequestsGivesCancelled() async throws {
        let server = try ScriptedServer { _ in .stall }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        let outcomes = Waitable<Result<PNTimeResult, PNStatus>>()
        // Weakly: a failed status keeps its retry, which keeps this completion (a cycle through the list).
        client.time { [weak outcomes] in outcomes?.append($0) }
        _ = try #require(await server.journal.wait(count: 1))
        client.cancelAllRequests()
        let outcome = try #require(await outcomes.wait(count: 1)?.first)
        guard case .failure(let status) = outcome else { Issue.record("expected a status"); return }
        #expect(status.category == .cancelled)
        #expect(status.isError == false)
        #expect(status.errorData?.transportError == .cancelled)
    }

    @Test func heartbeatIntervalFollowsThe4xRule() {
        var config = PubNubConfiguration(publishKey: nil, subscribeKey: "s", uuid: "u")
        #expect(config.effectiveHeartbeatInterval == nil)
        config.presenceHeartbeatValue = 60
        #expect(config.effectiveHeartbeatInterval == 29)
        config.presenceHeartbeatInterval = 0
        #expect(config.effectiveHeartbeatInterval == nil)
        config.presenceHeartbeatInterval = 5
        #expect(config.effectiveHeartbeatInterval == 5)
    }

    @Test func categoryNamesAndErrorFlags() {
        #expect(PNStatusCategory.allCases.count == 23)
        #expect(PNStatusCategory(rawValue: "PNTLSUntrustedCertificateCategory") == .tlsUntrustedCertificate)
        #expect(PNStatusCategory.allCases.filter { !$0.isError }
            == [.acknowledgment, .connected, .reconnected, .disconnected, .unexpectedDisconnect, .cancelled, .subscriptionChanged])
    }

    @Test func retryResendsTheRequest() async throws {
        let server = try ScriptedServer { _ in .http(500, "{}") }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        let outcomes = Waitable<Result<PNTimeResult, PNStatus>>()
        // Weakly: a failed status keeps its retry, which keeps this completion (a cycle through the list).
        client.time { [weak outcomes] in outcomes?.append($0) }
        let first = try #require(await outcomes.wait(count: 1)?.first)
        guard case .failure(let status) = first else { Issue.record("expected failure"); return }
        #expect(status.canRetry)
        status.retry()
        #expect(await server.journal.wait(count: 2) != nil)
        let second = await outcomes.wait(count: 2)
        #expect(second?.count == 2)
        #expect(server.journal.items.map(\.target) == Array(repeating: "/time/0?uuid=tester&pnsdk=PubNub-Swift-Linux%2F1.0.0", count: 2))
    }
}
