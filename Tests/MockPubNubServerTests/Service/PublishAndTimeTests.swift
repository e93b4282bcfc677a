// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The first timetoken the harness clock yields.
let serviceFirstTT: UInt64 = 17_356_896_001_234_567

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PublishAndTimeTests {
    @Test func timeIsSeventeenDigitsStrictlyIncreasingAndFollowsTheClock() {
        let h = ServiceHarness()
        #expect(h.call("/time/0?uuid=u") == (200, "[\(serviceFirstTT)]"))
        #expect(h.call("/time/0") == (200, "[\(serviceFirstTT + 1)]"))
        h.time.advance(seconds: 1)
        #expect(h.call("/time/0") == (200, "[\(serviceFirstTT + 10_000_000)]"))
    }

    @Test func publishGetAndPostAnswerSent() {
        let h = ServiceHarness()
        #expect(h.call("/publish/demo/demo/0/ch1/0/%22hi%22?uuid=u") == (200, "[1,\"Sent\",\"\(serviceFirstTT)\"]"))
        #expect(h.call("/publish/demo/demo/0/ch1/0?uuid=u", method: "POST", body: "{\"text\": \"hi\"}")
            == (200, "[1,\"Sent\",\"\(serviceFirstTT + 1)\"]"))
        #expect(h.call("/signal/demo/demo/0/ch1/0/%7B%7D") == (200, "[1,\"Sent\",\"\(serviceFirstTT + 2)\"]"))
        // The stored text is re-emitted verbatim, spacing included.
        #expect(h.call("/v2/history/sub-key/demo/channel/ch1") == (200, "[[\"hi\",{\"text\": \"hi\"}],\(serviceFirstTT),\(serviceFirstTT + 1)]"))
    }

    @Test(arguments: [0, 7, 10, 99, 17_356_896_001_234_567, UInt64.max] as [UInt64])
    func publishedBytesSpellThePublishedText(_ timetoken: UInt64) {
        #expect(PubNubBodies.publishedBytes(timetoken) == Array(PubNubBodies.published(timetoken).utf8))
    }

    @Test func anEnvelopeRenderedBeforeItsTimetokenWasSetCarriesTheTimetoken() {
        var message = StoredMessage(
            timetoken: 0, channel: "ch", kind: .message, payload: "{\"a\":1}", meta: "{}", publisher: "u", sequence: 3,
            customMessageType: "note", originTimetoken: "15", inHistory: true, live: true, expiresAt: nil)
        message.renderEnvelope(subscribeKey: "sk", region: 4, shard: "2")
        #expect(message.isRendered)
        message.timetoken = 17_000_000_000_000_042
        let head = "{\"a\":\"2\",\"f\":0,\"i\":\"u\",\"s\":3,\"p\":{\"t\":\"17000000000000042\",\"r\":4},\"o\":{\"t\":\"15\"},"
            + "\"k\":\"sk\",\"c\":\"ch\",\"u\":{},\"d\":{\"a\":1}"
        #expect(message.envelope(match: nil) == head + ",\"cmt\":\"note\"}")
        #expect(message.envelope(match: "g") == head + ",\"b\":\"g\",\"cmt\":\"note\"}")
    }

    @Test func anEnvelopeEscapesItsStringsAndSpellsItsNumbersAsText() {
        var message = StoredMessage(
            timetoken: 0, channel: "c\"h\\", kind: .signal, payload: "\"é\"", meta: nil, publisher: "u\n\u{1}",
            sequence: -12, customMessageType: nil, originTimetoken: nil, inHistory: false, live: true, expiresAt: nil)
        message.renderEnvelope(subscribeKey: "s\tk", region: 1_234_567, shard: "")
        message.timetoken = 7
        let expected = "{\"a\":\"\",\"f\":0,\"e\":1,\"i\":" + JSONText.stringLiteral("u\n\u{1}") + ",\"s\":-12,"
            + "\"p\":{\"t\":\"7\",\"r\":1234567},\"k\":\"s\\tk\",\"c\":" + JSONText.stringLiteral("c\"h\\") + ",\"d\":\"é\"}"
        #expect(message.envelope(match: nil) == expected)
    }

    @Test func invalidJSONIsRefused() {
        let h = ServiceHarness()
        #expect(h.call("/publish/demo/demo/0/ch1/0/%7Bnope") == (400, "[0,\"Invalid JSON\",\"\(serviceFirstTT)\"]"))
        #expect(h.call("/publish/demo/demo/0/ch1/0", method: "POST", body: "[1,]") == (400, "[0,\"Invalid JSON\",\"\(serviceFirstTT + 1)\"]"))
        #expect(h.call("/publish/demo/demo/0/ch1/0/1?meta=%7Bx") == (400, "[0,\"Invalid JSON\",\"\(serviceFirstTT + 2)\"]"))
        #expect(h.call("/v2/history/sub-key/demo/channel/ch1") == (200, "[[],0,0]"))
    }

    @Test func oversizedMessagesAndSignalsAreRefused() {
        let h = ServiceHarness()
        let big = "\"" + String(repeating: "x", count: 32 * 1024 - 1) + "\""
        #expect(h.call("/publish/demo/demo/0/ch/0", method: "POST", body: big) == (400, "[0,\"Message Too Large\",\"\(serviceFirstTT)\"]"))
        let fits = "\"" + String(repeating: "x", count: 32 * 1024 - 2) + "\""
        #expect(h.call("/publish/demo/demo/0/ch/0", method: "POST", body: fits).0 == 200)
        let signal = PercentDecoding.encode("\"" + String(repeating: "s", count: 63) + "\"")
        #expect(h.call("/signal/demo/demo/0/ch/0/\(signal)") == (400, "[0,\"Signal size too large\",\"\(serviceFirstTT + 2)\"]"))
    }

    @Test func reservedChannelCharactersAreRefused() {
        let h = ServiceHarness()
        let reserved = "{\"status\": 400, \"message\": \"Reserved character in input parameters.\", \"service\": \"channel-registry\", \"error\": true}"
        #expect(h.call("/publish/demo/demo/0/a%2Cb/0/1") == (400, reserved))
        #expect(h.call("/publish/demo/demo/0/a%2Fb/0/1") == (400, reserved))
        #expect(h.call("/v2/subscribe/demo/a*/0?tt=0") == (400, reserved))
    }

    @Test func unknownPathsAndBadEscapesHaveTheirBodies() {
        let h = ServiceHarness()
        #expect(h.call("/v2/presence/demo/demo/channel/c/heartbeat")
            == (404, "{\"message\": \"Not found: '/v2/presence/demo/demo/channel/c/heartbeat'\",\"error\": 1,\"service\": \"Presence\"}"))
        #expect(h.call("/publish/demo/demo/0/ch/0/%ZZ")
            == (400, "{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Balancer\",\"status\":400}"))
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=12ab")
            == (400, "{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Balancer\",\"status\":400}"))
    }

    @Test func namesAreEscapedInEnvelopes() {
        let h = ServiceHarness()
        h.publish("a%22b%20%C3%A9", "1")
        #expect(h.call("/v2/subscribe/demo/a%22b%20%C3%A9/0?tt=1").1.contains(",\"c\":\"a\\\"b é\",\"d\":1}"))
        #expect(PubNubJSON.quote("\u{01}\u{08}\u{0C}\r\né") == "\"\\u0001\\b\\f\\r\\né\"")
    }

    @Test func jsonValidatorIsStrict() {
        for good in ["1", "-0.5e+3", "\"a\\u00e9\\n\"", " {\"a\": [true, false, null]} ", "[]", "{}"] {
            #expect(PubNubJSON.isValid(good), "\(good)")
        }
        for bad in ["", "01", "1.", "[1,]", "{\"a\":}", "{a:1}", "\"\\x\"", "tru", "1 2", "\"\u{01}\"", "[", "NaN"] {
            #expect(!PubNubJSON.isValid(bad), "\(bad)")
        }
        let members = PubNubJSON.objectMembers("{\"k\\u0041\": {\"x\": 1} , \"n\":2}")
        #expect(members?.map(\.key) == ["kA", "n"])
        #expect(members?.map(\.value) == ["{\"x\": 1}", "2"])
    }

    /// Recorded (2020): a `ptto` is the timetoken the publish answers with; 2025: publish and
    /// signal success answer with the unquoted charset.
    @Test func pttoIsThePublishTimetokenAndSuccessIsUnquoted() {
        let h = ServiceHarness()
        let capture = h.send("/publish/demo/demo/0/ch1/0/%22hi%22?norep=true&ptto=16057799474000000")
        #expect(capture.body == "[1,\"Sent\",\"16057799474000000\"]")
        #expect(capture.response?.headers["Content-Type"] == "text/javascript; charset=UTF-8")
        #expect(h.send("/signal/demo/demo/0/ch1/0/1").response?.headers["Content-Type"] == "text/javascript; charset=UTF-8")
        // Refusals keep the quoted charset (recorded 2016-2020).
        #expect(h.send("/publish/demo/demo/0/ch1/0/%7B").response?.headers["Content-Type"] == "text/javascript; charset=\"UTF-8\"")
        #expect(h.call("/publish/demo/demo/0/ch1/0/1?ptto=12x").0 == 400)
    }

    /// Recorded (2025): a gzip-compressed POST body (`Content-Encoding: gzip`) is published as its
    /// inflated JSON; Python's zlib framing under the same header is taken too.
    @Test func compressedPostBodiesAreInflated() {
        let h = ServiceHarness()
        let gzip: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 202, 72, 205, 201, 201, 87, 178, 138, 86, 42, 201,
                             72, 45, 74, 85, 138, 173, 5, 0, 67, 31, 234, 128, 19, 0, 0, 0]
        let zlib: [UInt8] = [120, 156, 171, 86, 202, 72, 205, 201, 201, 87, 178, 138, 86, 42, 201, 72, 45, 74, 85, 138, 173, 5,
                             0, 65, 198, 6, 159]
        func post(_ body: [UInt8], encoding: String = "gzip") -> ServiceCapture {
            let capture = ServiceCapture()
            let context = RequestContext(connectionID: 1, peer: "127.0.0.1:5000", localPort: 8090, isTLS: false,
                                         arrivalTime: 0, sequenceOnConnection: 0)
            h.service.handle(HTTPRequest(method: "POST", target: "/publish/demo/demo/0/ch/0?uuid=u",
                                         headers: ["Content-Encoding": encoding, "Content-Type": "application/json"],
                                         body: body), context: context, responder: capture.responder)
            return capture
        }
        #expect(post(gzip).body == "[1,\"Sent\",\"\(serviceFirstTT)\"]")
        #expect(post(zlib, encoding: "deflate").body == "[1,\"Sent\",\"\(serviceFirstTT + 1)\"]")
        #expect(h.call("/v2/history/sub-key/demo/channel/ch")
            == (200, "[[{\"hello\":[\"there\"]},{\"hello\":[\"there\"]}],\(serviceFirstTT),\(serviceFirstTT + 1)]"))
        // A truncated stream is refused, and nothing is stored.
        let broken = post(Array(gzip.prefix(20)))
        #expect(broken.status == 400)
        #expect(broken.body == "{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Balancer\",\"status\":400}")
        #expect(ContentDecoding.inflate(gzip, limit: 5) == .failure(.tooLarge))
    }
}
