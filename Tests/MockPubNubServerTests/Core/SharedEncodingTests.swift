// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A loop encodes a response sent to many connections once, and never reuses bytes it should not.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct SharedEncodingTests {
    private let response = HTTPResponse.pubNub(200, "{\"t\":{\"t\":\"17000000000000001\",\"r\":12},\"m\":[]}")

    @Test func copiesAreTheSameValueAndEqualContentIsNot() {
        let copy = response
        #expect(response.isSameValue(as: copy))
        // Equal bytes in another buffer: not provably the same without comparing them.
        let rebuilt = HTTPResponse.pubNub(200, "{\"t\":{\"t\":\"17000000000000001\",\"r\":12},\"m\":[]}")
        #expect(rebuilt == response)
        #expect(!response.isSameValue(as: rebuilt))
        var otherStatus = copy
        otherStatus.status = 500
        #expect(!response.isSameValue(as: otherStatus))
        var otherHeader = copy
        otherHeader.headers.add("X-Extra", "1")
        #expect(!response.isSameValue(as: otherHeader))
    }

    @Test func aLoopSharesTheBytesOfACopyAndEncodesEverythingElseAfresh() throws {
        let loop = try EventLoop(index: 0)
        let first = loop.encode(response, keepAlive: true, headRequest: false)
        #expect(first.bytes == HTTPResponseEncoder.encode(response, keepAlive: true))
        // The body is the response's own array (shared by every connection answered with it).
        #expect(address(of: first.body) == address(of: response.body))
        let again = loop.encode(response, keepAlive: true, headRequest: false)
        #expect(address(of: again.head) == address(of: first.head))
        // Other framing, or another response with the same status, gets its own bytes.
        let closing = loop.encode(response, keepAlive: false, headRequest: false)
        #expect(closing.bytes == HTTPResponseEncoder.encode(response, keepAlive: false))
        #expect(address(of: closing.head) != address(of: first.head))
        let head = loop.encode(response, keepAlive: true, headRequest: true)
        #expect(head.bytes == HTTPResponseEncoder.encode(response, keepAlive: true, headRequest: true))
        #expect(head.body.isEmpty)
        let other = HTTPResponse.pubNub(200, "[1,\"Sent\",\"17000000000000002\"]")
        #expect(loop.encode(other, keepAlive: true, headRequest: false).bytes == HTTPResponseEncoder.encode(other, keepAlive: true))
    }

    @Test func aNewBodyBehindTheSameFieldsReusesTheirBytesAndTheWrittenHeadsStorage() throws {
        let loop = try EventLoop(index: 0)
        var firstAddress: UnsafePointer<UInt8>?
        do {
            let first = loop.encode(response, keepAlive: true, headRequest: false)
            #expect(first.bytes == HTTPResponseEncoder.encode(response, keepAlive: true))
            firstAddress = address(of: first.head)
        }
        // The first head was written out (nobody holds it): the next one is written into its storage.
        let longer = HTTPResponse(status: 200, headers: response.headers, body: Array(String(repeating: "y", count: 1_234).utf8))
        let second = loop.encode(longer, keepAlive: true, headRequest: false)
        #expect(second.bytes == HTTPResponseEncoder.encode(longer, keepAlive: true))
        #expect(address(of: second.head) == firstAddress)
        // Still held (a connection that could not write it yet): the next head gets other storage
        // and the held bytes stay as they were.
        let held = second.head
        let third = loop.encode(response, keepAlive: false, headRequest: false)
        #expect(third.bytes == HTTPResponseEncoder.encode(response, keepAlive: false))
        #expect(held == HTTPResponseEncoder.encodeHead(longer, keepAlive: true))
        #expect(address(of: third.head) != address(of: held))
    }

    @Test func anyChangeOfStatusReasonFieldsOrVersionIsEncodedAfresh() throws {
        let loop = try EventLoop(index: 0)
        var sameFieldsElsewhere = HTTPHeaders()
        for field in response.headers { sameFieldsElsewhere.add(field.name, field.value) }
        var extra = response.headers
        extra.add("X-Extra", "1")
        let body = Array("[1,\"Sent\",\"17000000000000002\"]".utf8)
        let sequence = [
            (HTTPResponse(status: 200, headers: response.headers, body: body), false),
            (HTTPResponse(status: 200, headers: sameFieldsElsewhere, body: body), false),
            (HTTPResponse(status: 400, headers: response.headers, body: body), false),
            (HTTPResponse(status: 400, reason: "Nope", headers: response.headers, body: body), false),
            (HTTPResponse(status: 200, headers: extra, body: body), false),
            (HTTPResponse(status: 200, headers: extra, body: body), true),
            (HTTPResponse(status: 200, headers: HTTPHeaders(), body: []), true),
            (HTTPResponse(status: 200, headers: response.headers, body: body), false),
        ]
        for (response, http10) in sequence {
            for keepAlive in [true, false] {
                let encoded = loop.encode(response, keepAlive: keepAlive, headRequest: false, http10: http10)
                #expect(encoded.bytes == HTTPResponseEncoder.encode(response, keepAlive: keepAlive, http10: http10))
            }
        }
        #expect(response.hasSameHead(as: HTTPResponse(status: 200, headers: sameFieldsElsewhere, body: [1])))
        #expect(!response.hasSameHead(as: HTTPResponse(status: 200, headers: extra, body: response.body)))
        #expect(!response.hasSameHead(as: HTTPResponse(status: 200, reason: "Fine", headers: response.headers, body: response.body)))
    }

    @Test func theHeadEncoderWritesEverythingUpToTheBody() {
        for (keepAlive, http10) in [(true, false), (false, false), (true, true), (false, true)] {
            let head = HTTPResponseEncoder.encodeHead(response, keepAlive: keepAlive, http10: http10)
            #expect(head + response.body == HTTPResponseEncoder.encode(response, keepAlive: keepAlive, http10: http10))
            #expect(head.suffix(4) == [13, 10, 13, 10])
        }
    }

    private func address(of bytes: [UInt8]) -> UnsafePointer<UInt8>? {
        bytes.withUnsafeBufferPointer { $0.baseAddress }
    }
}
