// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
@testable import HarnessRecording
import MockPubNubServer
import Testing

/// `serve --playback`: recorded answers, in order, to requests of the same shape; the mock for the rest.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5))), .offPool) struct PlaybackTests {
    static func exchange(_ id: Int, _ path: String, query: [NameValue], body: String, durationMs: Double = 0) -> RecordedExchange {
        RecordedExchange(
            id: id, endpoint: "subscribe", startedMs: Double(id), durationMs: durationMs, outcome: .answered,
            request: RecordedRequest(method: "GET", path: path, query: query),
            response: RecordedResponse(status: 200, headers: [NameValue("Content-Type", "text/javascript; charset=\"UTF-8\""),
                                                              NameValue("Access-Control-Allow-Origin", "*"), NameValue("Date", "x")],
                                       body: body))
    }

    static let recording = Recording(
        recorded: RecordingOrigin(upstream: "https://ps.pndsn.com", started: "2026-11-29T00:00:00Z", tool: "test"),
        exchanges: [
            exchange(1, "/v2/subscribe/{sub-key-1}/ch/0", query: [NameValue("tt", "0"), NameValue("pnsdk", "A/1"), NameValue("auth", "{token-1}")],
                     body: #"{"t":{"t":"17000000000000001","r":7},"m":[]}"#),
            exchange(2, "/v2/subscribe/{sub-key-1}/ch/0", query: [NameValue("tt", "17000000000000001"), NameValue("auth", "{token-1}")],
                     body: #"{"t":{"t":"17000000000000002","r":7},"m":[{"a":"9","f":0,"p":{"t":"17000000000000002","r":7},"k":"{sub-key-1}","c":"ch","d":"played"}]}"#),
        ])

    @Test func shapesIgnoreWhatChangesOnEveryCallAndKeepTheRest() {
        let recorded = Self.recording.exchanges[0].request
        let sent = HTTPRequest(method: "GET", target: "/v2/subscribe/sub-c-mine/ch/0?pnsdk=B%2F2&requestid=9&tt=0&auth=qEF2anything")
        let masked = PlaybackBook(Self.recording).masked
        #expect(PlaybackBook.shape(of: recorded, masked: masked) == PlaybackBook.shape(of: sent, masked: masked))
        let other = HTTPRequest(method: "GET", target: "/v2/subscribe/sub-c-mine/ch/0?tt=1&auth=x")
        #expect(PlaybackBook.shape(of: recorded, masked: masked) != PlaybackBook.shape(of: other, masked: masked))
    }

    @Test func recordedAnswersArePlayedInOrderWithTheClientsKeysThenTheMockAnswers() async throws {
        let playback = PlaybackInterceptor(recording: Self.recording, timing: .immediate)
        var configuration = MockServerConfiguration.loopback(tls: false)
        configuration.interceptor = playback
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let client = try HTTPClient(host: "127.0.0.1", port: try #require(server.address).port, trust: nil, userAgent: "test")
        func get(_ target: String) async throws -> HTTPClientResponse {
            try await client.perform(HTTPClientRequest(target: target), timeout: TestTime.budget(10)).get()
        }
        let handshake = try await get("/v2/subscribe/sub-c-play/ch/0?tt=0&pnsdk=B&auth=tok")
        #expect(String(decoding: handshake.body, as: UTF8.self) == #"{"t":{"t":"17000000000000001","r":7},"m":[]}"#)
        #expect(handshake.header("access-control-allow-origin") == "*" && handshake.headers.count { $0.name == "access-control-allow-origin" } == 1)
        #expect(handshake.header("date").map(HTTPDateFormat.isValid) == true, "the transport's own Date")
        let message = try await get("/v2/subscribe/sub-c-play/ch/0?tt=17000000000000001&auth=tok")
        #expect(String(decoding: message.body, as: UTF8.self).contains(#""k":"sub-c-play","c":"ch","d":"played""#))
        #expect(playback.remaining == 0)
        // Used up: the mock's own handshake (its region is 12, its timetoken now).
        let own = try await get("/v2/subscribe/sub-c-play/ch/0?tt=0&auth=tok")
        #expect(String(decoding: own.body, as: UTF8.self).hasSuffix(#""r":12},"m":[]}"#))
        #expect(try await get("/time/0").statusCode == 200)
    }

    @Test func recordedTimingDelaysTheAnswer() async throws {
        var slow = Self.recording
        slow.exchanges = [Self.exchange(1, "/time/0", query: [], body: "[17000000000000001]", durationMs: 300)]
        var configuration = MockServerConfiguration.loopback(tls: false)
        configuration.interceptor = PlaybackInterceptor(recording: slow, timing: .recorded)
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let client = try HTTPClient(host: "127.0.0.1", port: try #require(server.address).port, trust: nil, userAgent: "test")
        let began = ContinuousClock.now
        let answer = try await client.perform(HTTPClientRequest(target: "/time/0"), timeout: TestTime.budget(10)).get()
        #expect(ContinuousClock.now - began >= .milliseconds(300))
        #expect(answer.body == Array("[17000000000000001]".utf8))
    }
}
