// SPDX-License-Identifier: MIT
import Glibc
import MockPubNubServer
import Testing
@testable import ClientUnderTest

/// Every status category of a non-subscribe operation (publish), produced by the real mock server's
/// fault plans, listener faults and refused port.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerCategoryTests {
    /// Publishes `1` on `room` through a client configured by `configure`; returns the status.
    private func publishStatus(origin: String, timeout: Double = TestTime.budget(5),
                               configure: (inout PubNubConfiguration) -> Void = { _ in }) async throws -> PNStatus
    {
        let client = try makeClient(origin: origin) {
            $0.nonSubscribeRequestTimeout = timeout
            configure(&$0)
        }
        do throws(PNStatus) {
            let result = try await client.publish(1, channel: "room")
            Issue.record("expected a status, got \(result)")
            throw PNStatus(category: .unknown, operation: .publish)
        } catch {
            return error
        }
    }

    /// Installs `fault` on every publish, publishes once, checks the journal names the rule.
    private func faultedPublish(_ fault: String, timeout: Double = TestTime.budget(5)) async throws -> PNStatus {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: #"{"endpoint":"publish"}"#, fault: fault)
        let status = try await publishStatus(origin: mock.origin, timeout: timeout)
        let faulted = mock.journal.filter { $0.endpoint == .publish }
        #expect(faulted.count == 1)
        #expect(faulted.first?.rule == "r")
        return status
    }

    @Test(arguments: [
        (400, PNStatusCategory.badRequest, "Invalid Key" as String?),
        (404, .resourceNotFound, "Not found: '/publish/pub-k/sub-k/0/room/0/1'"),
        (414, .requestURITooLong, "Request URI Too Long"),
        (481, .malformedFilterExpression, "HTTP 481"),
        (429, .unknown, nil),
        (500, .unknown, "HTTP 500"),
        (502, .unknown, nil),
        (503, .unknown, "Service Unavailable"),
        (504, .unknown, "Service Unavailable"),
    ])
    func errorStatuses(code: Int, category: PNStatusCategory, information: String?) async throws {
        let status = try await faultedPublish(#"{"kind":"status","status":\#(code)}"#)
        #expect(status.category == category)
        #expect(status.statusCode == code)
        #expect(status.isError)
        #expect(status.operation == .publish)
        if let information { #expect(status.errorData?.information == information) }
    }

    @Test func accessDeniedNamesTheRequestChannels() async throws {
        let status = try await faultedPublish(#"{"kind":"status","status":403}"#)
        #expect(status.category == .accessDenied)
        #expect(status.statusCode == 403)
        #expect(status.errorData?.channels == ["room"])
        #expect(status.errorData?.information == "Forbidden")
    }

    @Test(arguments: [
        #"{"kind":"malformed-json"}"#,
        #"{"kind":"html"}"#,
        #"{"kind":"wrong-content-type"}"#,
        #"{"kind":"wrong-shape"}"#,
        #"{"kind":"empty-body"}"#,
        #"{"kind":"truncated-json"}"#,
    ])
    func malformedBodies(fault: String) async throws {
        let status = try await faultedPublish(fault)
        #expect(status.category == .malformedResponse)
        #expect(status.statusCode == 200)
        #expect(status.isError)
    }

    @Test func hangIsATimeout() async throws {
        let status = try await faultedPublish(#"{"kind":"hang"}"#, timeout: 0.3)
        #expect(status.category == .timeout)
        #expect(status.statusCode == 0)
    }

    @Test(arguments: [#"{"kind":"reset"}"#, #"{"kind":"close"}"#, #"{"kind":"reset-after-headers"}"#])
    func connectionLossIsANetworkIssue(fault: String) async throws {
        let status = try await faultedPublish(fault)
        #expect(status.category == .networkIssues)
        #expect(status.statusCode == 0)
    }

    @Test func refusedPortIsANetworkIssue() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let refused = try mock.server.refusedPort()
        let status = try await publishStatus(origin: "127.0.0.1:\(refused.port)")
        #expect(status.category == .networkIssues)
        guard case .connectFailed(let code, _)? = status.errorData?.transportError else {
            Issue.record("transport error \(String(describing: status.errorData?.transportError))")
            return
        }
        #expect(code == ECONNREFUSED)
    }

    @Test(arguments: [ListenerFault.resetOnAccept, .closeOnAccept])
    func listenerFaultsAreNetworkIssues(fault: ListenerFault) async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let listener = try mock.server.openListener(fault: fault)
        let status = try await publishStatus(origin: "127.0.0.1:\(listener.port)")
        #expect(status.category == .networkIssues)
    }

    @Test func invalidChunkedFramingIsMalformed() async throws {
        let status = try await faultedPublish(#"{"kind":"invalid-chunked"}"#)
        #expect(status.category == .malformedResponse)
        #expect(status.errorData?.transportError == .malformedHTTP(#"bad chunk size "zz""#))
    }

    @Test func aBodyCutShortOfItsContentLengthIsANetworkIssue() async throws {
        let status = try await faultedPublish(#"{"kind":"truncated-body"}"#)
        #expect(status.category == .networkIssues)
        guard case .closedBeforeResponse? = status.errorData?.transportError else {
            Issue.record("transport error \(String(describing: status.errorData?.transportError))")
            return
        }
    }

    @Test func aResetInsideTheBodyIsANetworkIssue() async throws {
        let status = try await faultedPublish(#"{"kind":"reset-after-body-bytes","bytes":3}"#)
        #expect(status.category == .networkIssues)
        #expect(status.errorData?.transportError == .connectionLost(errno: ECONNRESET, "Connection reset by peer"))
    }

    @Test func aWellFramedCutBodyIsMalformed() async throws {
        let status = try await faultedPublish(#"{"kind":"truncated-body","contentLength":"correct"}"#)
        #expect(status.category == .malformedResponse)
        #expect(status.statusCode == 200)
    }

    @Test func aDelayBeyondTheTimeoutIsATimeoutAndADripSucceeds() async throws {
        let late = try await faultedPublish(#"{"kind":"delay","ms":1000}"#, timeout: 0.3)
        #expect(late.category == .timeout)
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: #"{"endpoint":"publish"}"#, fault: #"{"kind":"drip","chunkSize":4,"intervalMs":2}"#)
        let client = try makeClient(origin: mock.origin)
        let dripped = try await client.publish(1, channel: "room")
        #expect(try await client.history(channel: "room", includeTimetoken: true).messages.map(\.timetoken) == [dripped.timetoken])
    }
}
