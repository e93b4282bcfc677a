// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
import HarnessJSON
import HarnessRecording
import MockPubNubServer
import Testing

/// The proxy itself: long-polls wait off the event loop, a client that goes away cancels the
/// upstream request, upstream failures reach the client and the recording, TLS upstreams.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5))), .offPool) struct RecordingProxyTests {
    static func proxy(upstream: String, output: String, loops: Int? = nil, trust: HTTPTrust = .system) throws -> RecordingProxy {
        var configuration = RecordingProxyConfiguration(upstream: try UpstreamOrigin(parsing: upstream), output: output)
        configuration.transport.eventLoopCount = loops
        configuration.upstreamTrust = trust
        let proxy = try RecordingProxy(configuration: configuration)
        try proxy.start()
        return proxy
    }

    @Test func parkedLongPollsHoldNoEventLoopAndAllAnswerWhenAPublishWakesThem() async throws {
        let upstream = try RecordingHarness.startUpstream()
        defer { upstream.stop() }
        let output = RecordingHarness.temporaryPath("longpolls.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let proxy = try Self.proxy(upstream: "http://127.0.0.1:\(try #require(upstream.address).port)", output: output, loops: 1)
        let client = try HTTPClient(host: "127.0.0.1", port: try #require(proxy.address).port, trust: nil, userAgent: "test", keepAlive: false)
        let handshake = try await client.perform(HTTPClientRequest(target: "/v2/subscribe/sub-c-lp/ch-lp/0?uuid=w&tt=0"), timeout: TestTime.budget(10)).get()
        let tt = try #require(JSONValue.parse(handshake.body)["t"]?["t"]?.stringValue)
        let waiters = 16
        let answers = Waitable<String>()
        for index in 0..<waiters {
            Task {
                let outcome = await client.perform(HTTPClientRequest(target: "/v2/subscribe/sub-c-lp/ch-lp/0?uuid=w\(index)&tt=\(tt)"),
                                                   timeout: TestTime.budget(30))
                answers.append((try? outcome.get()).map { String(decoding: $0.body, as: UTF8.self) } ?? "failed")
            }
        }
        #expect(await eventually { upstream.service.parkedLongPolls(subscribeKey: "sub-c-lp") == waiters })
        // The proxy's one event loop still answers while sixteen long-polls wait upstream.
        let time = await client.perform(HTTPClientRequest(target: "/time/0"), timeout: TestTime.budget(5))
        #expect((try? time.get().statusCode) == 200)
        #expect(answers.items.isEmpty)
        let publish = await client.perform(HTTPClientRequest(target: "/publish/pub-c-lp/sub-c-lp/0/ch-lp/0/%22wake%22"), timeout: TestTime.budget(5))
        #expect((try? publish.get().statusCode) == 200)
        let woken = try #require(await answers.wait(count: waiters, timeout: TestTime.budget(20)))
        #expect(woken.allSatisfy { $0.contains(#""d":"wake""#) })
        await proxy.shutdown()
        let recording = try RecordingHarness.read(output).recording
        #expect(recording.exchanges.count { $0.endpoint == "subscribe" && $0.outcome == .answered } == waiters + 1)
    }

    @Test func aClientThatGoesAwayCancelsTheUpstreamLongPollAndTheRecordingSaysSo() async throws {
        let upstream = try RecordingHarness.startUpstream()
        defer { upstream.stop() }
        let output = RecordingHarness.temporaryPath("cancel.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let proxy = try Self.proxy(upstream: "http://127.0.0.1:\(try #require(upstream.address).port)", output: output)
        let client = try HTTPClient(host: "127.0.0.1", port: try #require(proxy.address).port, trust: nil, userAgent: "test")
        let cancel = CancellationSignal()
        let abandoned = Task {
            await client.perform(HTTPClientRequest(target: "/v2/subscribe/sub-c-gone/ch/0?uuid=u&tt=17000000000000000"), timeout: 60, cancel: cancel)
        }
        #expect(await eventually { upstream.service.parkedLongPolls(subscribeKey: "sub-c-gone") == 1 })
        cancel.cancel()
        _ = await abandoned.value
        #expect(await eventually { upstream.service.parkedLongPolls(subscribeKey: "sub-c-gone") == 0 }, "the upstream request ended too")
        #expect(await eventually { proxy.recordedCount == 1 })
        await proxy.shutdown()
        let exchange = try #require(RecordingHarness.read(output).recording.exchanges.first)
        #expect(exchange.outcome == .cancelled && exchange.response == nil)
    }

    @Test func upstreamFailuresReachTheClientAndTheRecording() async throws {
        let refusing = RefusingPort()
        let output = RecordingHarness.temporaryPath("refused.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let proxy = try Self.proxy(upstream: "http://127.0.0.1:\(refusing.port)", output: output)
        let client = try HTTPClient(host: "127.0.0.1", port: try #require(proxy.address).port, trust: nil, userAgent: "test")
        let answer = try await client.perform(HTTPClientRequest(target: "/time/0"), timeout: TestTime.budget(10)).get()
        #expect(answer.statusCode == 502)
        await proxy.shutdown()
        let exchange = try #require(RecordingHarness.read(output).recording.exchanges.first)
        #expect(exchange.outcome == .upstreamFailed && exchange.error?.contains("connect failed") == true)
    }

    @Test func anHTTPSUpstreamIsTrustedThroughTheGivenCAOnly() async throws {
        let upstream = try RecordingHarness.startUpstream()
        defer { upstream.stop() }
        let tls = "https://localhost:\(try #require(upstream.tlsAddress).port)"
        let output = RecordingHarness.temporaryPath("tls.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let trusting = try Self.proxy(upstream: tls, output: output, trust: .pem(upstream.certificateAuthorityPEM))
        let client = try HTTPClient(host: "127.0.0.1", port: try #require(trusting.address).port, trust: nil, userAgent: "test")
        #expect(try await client.perform(HTTPClientRequest(target: "/time/0"), timeout: TestTime.budget(10)).get().statusCode == 200)
        await trusting.shutdown()
        #expect(try RecordingHarness.read(output).recording.recorded.upstream == tls)

        let untrusting = try Self.proxy(upstream: tls, output: output)
        let other = try HTTPClient(host: "127.0.0.1", port: try #require(untrusting.address).port, trust: nil, userAgent: "test")
        #expect(try await other.perform(HTTPClientRequest(target: "/time/0"), timeout: TestTime.budget(10)).get().statusCode == 502)
        await untrusting.shutdown()
        let failed = try #require(RecordingHarness.read(output).recording.exchanges.first)
        #expect(failed.outcome == .upstreamFailed && failed.error?.contains("certificate not trusted") == true)
    }
}
