// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
import MockPubNubServer

/// The nested configuration and the typed start errors of the façade.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerConfigurationTests {
    @Test func flatNamesReadAndWriteTheNestedFields() {
        var configuration = MockServerConfiguration.loopback(tls: false)
        #expect(configuration.transport.tlsPort == nil)
        configuration.tlsPort = 0
        configuration.eventLoopCount = 3
        configuration.keysets = [Keyset(subscribeKey: "s", publishKey: "p", secretKey: "k")]
        configuration.adminAllowsRemotePeers = true
        #expect(configuration.transport.tlsPort == 0)
        #expect(configuration.transport.eventLoopCount == 3)
        #expect(configuration.pubNub.keysets.map(\.subscribeKey) == ["s"])
        #expect(configuration.admin.allowsRemotePeers)
        #expect(configuration.transport.httpServer.eventLoopCount == 3)
    }

    @Test func aBusyPortIsATypedBindError() throws {
        var first = MockServerConfiguration.loopback(tls: false)
        first.eventLoopCount = 1
        let server = try MockServer(configuration: first)
        let port = try server.start().port
        defer { server.stop() }
        var second = first
        second.port = port
        let other = try MockServer(configuration: second)
        do throws(MockServerError) {
            try other.start()
            Issue.record("a second server started on the same port")
        } catch {
            guard case .bind(let detail) = error.reason else {
                Issue.record("expected a bind error, got \(error)")
                return
            }
            #expect(detail.errno == EADDRINUSE)
            #expect(error.description.hasPrefix("cannot start listening: bind"))
        }
    }
}
