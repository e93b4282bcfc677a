// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A loop encodes a response sent to many connections once, and never reuses bytes it should not.
@Suite struct SharedEncodingTests {
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
        #expect(first == HTTPResponseEncoder.encode(response, keepAlive: true))
        let again = loop.encode(response, keepAlive: true, headRequest: false)
        #expect(again.withUnsafeBufferPointer { $0.baseAddress } == first.withUnsafeBufferPointer { $0.baseAddress })
        // Other framing, or another response with the same status, gets its own bytes.
        #expect(loop.encode(response, keepAlive: false, headRequest: false)
            == HTTPResponseEncoder.encode(response, keepAlive: false))
        #expect(loop.encode(response, keepAlive: true, headRequest: true)
            == HTTPResponseEncoder.encode(response, keepAlive: true, headRequest: true))
        let other = HTTPResponse.pubNub(200, "[1,\"Sent\",\"17000000000000002\"]")
        #expect(loop.encode(other, keepAlive: true, headRequest: false) == HTTPResponseEncoder.encode(other, keepAlive: true))
    }
}
