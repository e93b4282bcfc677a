// SPDX-License-Identifier: MIT
import HarnessHTTP
import Testing

@Suite("HTTPResponseHead", .timeLimit(.minutes(5)))
struct HTTPResponseHeadTests {
    @Test func parsesStatusReasonAndFieldsAndReportsWhatItUsed() throws {
        let bytes = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nX-A:  b \t\r\nx-a: c\r\n\r\n".utf8) + [0x81, 0x00]
        let (head, consumed) = try #require(try HTTPResponseHead.parse(bytes))
        #expect(head.version == "HTTP/1.1")
        #expect(head.status == 101)
        #expect(head.reason == "Switching Protocols")
        #expect(head.headers["upgrade"] == "websocket")
        #expect(head.headers.values(for: "X-A") == ["b", "c"])
        #expect(consumed == bytes.count - 2)
    }

    @Test func waitsForTheBlankLine() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n".utf8)
        #expect(try HTTPResponseHead.parse(bytes) == nil)
        #expect(try HTTPResponseHead.parse(Array(bytes.prefix(5))) == nil)
        #expect(try HTTPResponseHead.parse([]) == nil)
    }

    @Test func acceptsBareLineFeedsAndAnEmptyReason() throws {
        let (head, consumed) = try #require(try HTTPResponseHead.parse(Array("HTTP/1.0 204\nA: 1\n\nrest".utf8)))
        #expect(head.status == 204)
        #expect(head.reason == "")
        #expect(head.version == "HTTP/1.0")
        #expect(head.headers["a"] == "1")
        #expect(consumed == 19)
    }

    @Test(arguments: ["garbage\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 +20 OK\r\n\r\n", "HTTP/1.1 099 X\r\n\r\n"])
    func refusesABadStatusLine(_ text: String) {
        #expect(throws: HTTPResponseHeadError.self) { try HTTPResponseHead.parse(Array(text.utf8)) }
    }

    @Test func refusesAHeaderLineWithoutColonAndAnEndlessHead() {
        #expect(throws: HTTPResponseHeadError.badHeaderLine) { try HTTPResponseHead.parse(Array("HTTP/1.1 200 OK\r\nbroken\r\n\r\n".utf8)) }
        let endless = Array("HTTP/1.1 200 OK\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        #expect(throws: HTTPResponseHeadError.tooLong(limit: 64)) { try HTTPResponseHead.parse(endless, maxLength: 64) }
        #expect(HTTPResponseHeadError.badStatusLine("x").description == "bad status line \"x\"")
    }
}
