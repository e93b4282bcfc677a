// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Request-target forms and the TLS-record check of the pure parser.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RequestTargetParserTests {
    private func parse(_ bytes: [UInt8]) -> Result<HTTPRequestParser.Parsed?, HTTPParseError> {
        var parser = HTTPRequestParser()
        parser.append(bytes)
        do throws(HTTPParseError) { return .success(try parser.next()) } catch { return .failure(error) }
    }

    @Test func absoluteFormKeepsTheTargetAndSplitsItsOriginForm() throws {
        let parsed = try #require(try parse(Array("GET http://h:1/v2/presence/sub-key/k?uuid=a%20b HTTP/1.1\r\n\r\n".utf8)).get())
        #expect(parsed.request.target == "http://h:1/v2/presence/sub-key/k?uuid=a%20b")
        #expect(parsed.request.rawPath == "/v2/presence/sub-key/k")
        #expect(parsed.request.pathSegments == ["v2", "presence", "sub-key", "k"])
        #expect(parsed.request.queryItems == [QueryItem(name: "uuid", value: "a b")])
    }

    @Test(arguments: ["time/0", "h:80", "ftp://h/", "*", "%2Ftime"])
    func otherTargetsAreInvalid(target: String) {
        #expect(parse(Array("GET \(target) HTTP/1.1\r\n\r\n".utf8)) == .failure(.invalidRequestTarget))
    }

    @Test func aTLSRecordHeaderIsRecognisedFromThreeBytes() {
        #expect(parse([0x16]) == .success(nil))
        #expect(parse([0x16, 0x03]) == .success(nil))
        for minor: UInt8 in 0...4 {
            #expect(parse([0x16, 0x03, minor]) == .failure(.tlsOnPlainPort))
        }
        // Not a TLS version: an ordinary bad request line once the line ends.
        #expect(parse([0x16, 0x03, 0x09, 0x0A]) == .failure(.invalidRequestLine))
        #expect(HTTPParseError.tlsOnPlainPort.status == 400)
    }
}
