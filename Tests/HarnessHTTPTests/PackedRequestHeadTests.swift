// SPDX-License-Identifier: MIT
@testable import HarnessHTTP
import Testing

/// The parsed request head kept as one buffer: it must read, compare and hash as the request
/// built from strings does.
@Suite("Packed request head", .timeLimit(.minutes(5)))
struct PackedRequestHeadTests {
    /// The requests parsed from `text`, in order.
    private func parse(_ bytes: [UInt8]) throws -> [HTTPRequest] {
        var parser = HTTPRequestParser()
        parser.append(bytes)
        var requests: [HTTPRequest] = []
        for _ in 0..<16 {
            guard let parsed = try parser.next() else { break }
            requests.append(parsed.request)
        }
        return requests
    }

    private func parseOne(_ text: String) throws -> HTTPRequest {
        let requests = try parse(Array(text.utf8))
        try #require(requests.count == 1)
        return requests[0]
    }

    @Test func aParsedRequestEqualsTheOneBuiltFromStrings() throws {
        let parsed = try parseOne(
            "POST /publish/p/s/0/ch/0?uuid=u-1&seqn=2 HTTP/1.1\r\nHost: example.test:8080\r\n"
                + "User-Agent: PubNub-Swift/7.0 (a longer agent string)\r\nContent-Length: 2\r\n\r\nhi")
        guard case .packed = parsed.line, case .packed = parsed.headers.storage else {
            Issue.record("a parsed origin-form request keeps its head packed")
            return
        }
        let built = HTTPRequest(
            method: "POST", target: "/publish/p/s/0/ch/0?uuid=u-1&seqn=2",
            headers: ["Host": "example.test:8080", "User-Agent": "PubNub-Swift/7.0 (a longer agent string)", "Content-Length": "2"],
            body: Array("hi".utf8))
        #expect(parsed == built)
        #expect(built == parsed)
        #expect(parsed.hashValue == built.hashValue)
        #expect(parsed.target == "/publish/p/s/0/ch/0?uuid=u-1&seqn=2")
        #expect(parsed.rawPath == "/publish/p/s/0/ch/0")
        #expect(parsed.rawQuery == "uuid=u-1&seqn=2")
        #expect(parsed.pathSegments == ["publish", "p", "s", "0", "ch", "0"])
        #expect(parsed.queryItems == [QueryItem(name: "uuid", value: "u-1"), QueryItem(name: "seqn", value: "2")])
        #expect(parsed.headers.fields.map(\.name) == ["Host", "User-Agent", "Content-Length"])
        // A different target, header value or body breaks the equality.
        var other = built
        other.target = "/publish/p/s/0/ch/1?uuid=u-1&seqn=2"
        #expect(parsed != other)
        var otherHeader = built
        otherHeader.headers.set("Host", "example.test:8081")
        #expect(parsed != otherHeader)
        let twice = try parse(Array(("GET /a?b HTTP/1.1\r\nX: 1\r\n\r\n" + "GET /a?b HTTP/1.1\r\nX: 2\r\n\r\n").utf8))
        #expect(twice.count == 2 && twice[0] != twice[1] && twice[0].target == twice[1].target)
    }

    @Test func aTargetWithoutQueryAndAnEmptyQuery() throws {
        let plain = try parseOne("GET /time/0 HTTP/1.1\r\n\r\n")
        #expect(plain.rawPath == "/time/0" && plain.rawQuery == "" && plain.queryItems == [])
        #expect(plain.headers.count == 0 && plain.headers["Host"] == nil)
        #expect(plain == HTTPRequest(method: "GET", target: "/time/0"))
        let emptyQuery = try parseOne("GET /time/0? HTTP/1.1\r\n\r\n")
        #expect(emptyQuery.rawPath == "/time/0" && emptyQuery.rawQuery == "" && emptyQuery.target == "/time/0?")
        #expect(emptyQuery == HTTPRequest(method: "GET", target: "/time/0?"))
        #expect(emptyQuery != plain)
    }

    @Test func lookupsByNameIgnoreLetterCaseAndFindEveryRepeatedField() throws {
        let request = try parseOne(
            "GET / HTTP/1.1\r\nhost: h\r\nX-Trace: one\r\nACCEPT: */*\r\nx-trace:  two \t\r\nX-TRACE:\r\n\r\n")
        #expect(request.headers["Host"] == "h")
        #expect(request.headers["HOST"] == "h")
        #expect(request.headers["accept"] == "*/*")
        #expect(request.headers["x-trace"] == "one")
        #expect(request.headers.values(for: "X-Trace") == ["one", "two", ""])
        #expect(request.headers["X-Trac"] == nil && request.headers["X-Traces"] == nil)
        #expect(request.headers["Hosu"] == nil)
        #expect(request.headers.count == 5)
        #expect(request.headers.map(\.name) == ["host", "X-Trace", "ACCEPT", "x-trace", "X-TRACE"])
        #expect(request.headers.tokens(for: "x-trace") == ["one", "two"])
    }

    @Test func nonASCIIBytesInValuesReadAsTheStringsTheyDecodeTo() throws {
        let bytes = Array("GET /a HTTP/1.1\r\nX-Name: caf".utf8) + [0xC3, 0xA9] + Array("\r\nX-Bad: a".utf8) + [0xFF]
            + Array("b\r\n\r\n".utf8)
        let request = try #require(try parse(bytes).first)
        #expect(request.headers["x-name"] == "café")
        #expect(request.headers["X-Bad"] == "a\u{FFFD}b")
        #expect(request == HTTPRequest(method: "GET", target: "/a", headers: ["X-Name": "café", "X-Bad": "a\u{FFFD}b"]))
        // Canonically equal strings are equal whatever their bytes, as for built headers.
        let decomposed = Array("GET /a HTTP/1.1\r\nX-Name: cafe".utf8) + [0xCC, 0x81] + Array("\r\nX-Bad: a".utf8) + [0xFF]
            + Array("b\r\n\r\n".utf8)
        let other = try #require(try parse(decomposed).first)
        #expect(other.headers == request.headers)
        #expect(other.headers.hashValue == request.headers.hashValue)
    }

    @Test func nonASCIITargetsAndAbsoluteFormTargets() throws {
        let unicode = try #require(try parse(Array("GET /ch/".utf8) + [0xC3, 0xA9] + Array("?q=".utf8) + [0xC3, 0xA9]
            + Array(" HTTP/1.1\r\n\r\n".utf8)).first)
        #expect(unicode.rawPath == "/ch/é" && unicode.rawQuery == "q=é" && unicode.pathSegments == ["ch", "é"])
        #expect(unicode == HTTPRequest(method: "GET", target: "/ch/é?q=é"))
        let absolute = try parseOne("GET http://example.test:80/v2/time/0?uuid=a HTTP/1.1\r\nHost: example.test\r\n\r\n")
        #expect(absolute.target == "http://example.test:80/v2/time/0?uuid=a")
        #expect(absolute.rawPath == "/v2/time/0" && absolute.rawQuery == "uuid=a")
        #expect(absolute.headers["host"] == "example.test")
        #expect(absolute == HTTPRequest(method: "GET", target: "http://example.test:80/v2/time/0?uuid=a", headers: ["Host": "example.test"]))
        let bare = try parseOne("GET HTTPS://example.test?x=1 HTTP/1.1\r\n\r\n")
        #expect(bare.rawPath == "/" && bare.rawQuery == "x=1")
        let star = try parseOne("OPTIONS * HTTP/1.1\r\n\r\n")
        #expect(star.target == "*" && star.rawPath == "*" && star.rawQuery == "")
    }

    @Test func setRemoveAndAddOnParsedFieldsWorkAsOnBuiltOnes() throws {
        let parsed = try parseOne("GET /a HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nx-a: 2\r\nAccept: */*\r\n\r\n")
        var built = HTTPHeaders([("Host", "h"), ("X-A", "1"), ("x-a", "2"), ("Accept", "*/*")])
        #expect(parsed.headers == built)
        var changed = parsed.headers
        changed.set("X-A", "3")
        built.set("X-A", "3")
        #expect(changed.fields.map(\.name) == ["Host", "Accept", "X-A"] && changed.fields.map(\.value) == ["h", "*/*", "3"])
        #expect(changed == built)
        changed.remove("HOST")
        built.remove("HOST")
        #expect(changed == built && changed["Host"] == nil && changed.count == 2)
        changed.add("host", "i")
        built.add("host", "i")
        #expect(changed == built && changed["HOST"] == "i")
        // The parsed request's own fields are untouched (value semantics).
        #expect(parsed.headers["X-A"] == "1" && parsed.headers.count == 4)
        var request = parsed
        request.headers.add("X-B", "b")
        #expect(request.target == "/a" && request.headers.count == 5 && parsed.headers.count == 4)
    }

    @Test func settingATargetPartChangesOnlyThatPart() throws {
        var request = try parseOne("GET /a/b?c=d HTTP/1.1\r\n\r\n")
        request.rawQuery = "e=f"
        #expect(request.target == "/a/b?c=d" && request.rawPath == "/a/b" && request.rawQuery == "e=f")
        var built = HTTPRequest(method: "GET", target: "/a/b?c=d")
        built.rawQuery = "e=f"
        #expect(request == built)
    }

    @Test func sharedStorageIsSeenOnlyForTheSameFields() throws {
        let constant: HTTPHeaders = ["Content-Type": "text/javascript; charset=UTF-8", "Cache-Control": "no-cache"]
        let copy = constant
        #expect(constant.sharesStorage(with: copy))
        let equal: HTTPHeaders = ["Content-Type": "text/javascript; charset=UTF-8", "Cache-Control": "no-cache"]
        #expect(!constant.sharesStorage(with: equal) && constant == equal)
        let parsed = try parseOne("GET /a HTTP/1.1\r\nContent-Type: text/javascript; charset=UTF-8\r\nCache-Control: no-cache\r\n\r\n")
        #expect(parsed.headers.sharesStorage(with: parsed.headers))
        #expect(!parsed.headers.sharesStorage(with: constant) && parsed.headers == constant)
        let response = HTTPResponse(status: 200, headers: constant)
        #expect(response.hasSameHead(as: HTTPResponse(status: 200, headers: copy, body: [1])))
        #expect(response.hasSameHead(as: HTTPResponse(status: 200, headers: parsed.headers)))
        #expect(!response.hasSameHead(as: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"])))
    }

    /// The head's pieces are noted as offsets from its first byte and copied once it is
    /// complete: a head that arrives in pieces, after a request whose body moved the parser's
    /// buffer (compacted while the head is half read), packs as the same head read at once.
    @Test func aHeadArrivingInPiecesAcrossACompactionPacksAsInOneRead() throws {
        var fields: [(String, String)] = [("Host", "h.test"), ("X-Empty", ""), ("x-long", String(repeating: "v", count: 300))]
        for index in 0..<14 { fields.append(("X-F\(index)", "value \(index)")) }
        let head = "GET /ch/a?uuid=u&x= HTTP/1.1\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        let expected = HTTPRequest(method: "GET", target: "/ch/a?uuid=u&x=", headers: HTTPHeaders(fields))
        let whole = try parseOne(head)
        #expect(whole == expected && whole.headers.fields.map(\.value) == fields.map(\.1))
        // A first request with a 5,000-byte body, then the head in pieces of 1, 7 and 64 bytes,
        // behind 2,600 empty lines (skipped before a request line): the buffer is kept while the
        // first request is taken (as many bytes follow as it held) and compacted once the head
        // has begun.
        let first = Array("POST /p HTTP/1.1\r\nContent-Length: 5000\r\n\r\n".utf8) + Array(repeating: UInt8(ascii: "b"), count: 5000)
        for piece in [1, 7, 64] {
            var parser = HTTPRequestParser()
            let second = Array((String(repeating: "\r\n", count: 2600) + head).utf8)
            parser.append(first + second.prefix(5200 + piece))
            var offset = 5200 + piece
            let body = try #require(try parser.next()).request
            #expect(body.body.count == 5000 && body.target == "/p")
            var parsed: HTTPRequest?
            for _ in 0...(second.count / piece + 1) {
                if let next = try parser.next() {
                    parsed = next.request
                    break
                }
                guard offset < second.count else { break }
                parser.append(Array(second[offset..<min(offset + piece, second.count)]))
                offset += piece
            }
            let request = try #require(parsed, "piece \(piece)")
            #expect(request == expected, "piece \(piece)")
            #expect(request.rawPath == "/ch/a" && request.rawQuery == "uuid=u&x=" && request.headers["x-empty"] == "")
            #expect(request.headers.fields.map(\.name) == fields.map(\.0) && request.headers.fields.map(\.value) == fields.map(\.1))
            #expect(request.headers.values(for: "X-LONG") == [String(repeating: "v", count: 300)])
        }
    }

    @Test func aHeadWithoutFieldsAndATargetOfOneByte() throws {
        let request = try parseOne("GET / HTTP/1.1\r\n\r\n")
        #expect(request.target == "/" && request.rawPath == "/" && request.rawQuery == "" && request.headers.count == 0)
        #expect(request.headers.fields.isEmpty && request == HTTPRequest(method: "GET", target: "/"))
        let query = try parseOne("GET /? HTTP/1.1\r\nA:\r\n\r\n")
        #expect(query.rawPath == "/" && query.rawQuery == "" && query.headers["a"] == "" && query.headers.count == 1)
    }

    @Test func theEightBytesAtATimeSearchFindsTheFirstMatchAsALoopDoes() {
        // Every position of the match, with bytes around it that differ from it by one (borrows).
        for length in 0..<40 {
            for position in -1..<length {
                var bytes = (0..<length).map { UInt8(truncatingIfNeeded: 0x0B + ($0 % 3) * 0x7A) }
                if position >= 0 { bytes[position] = 0x0A }
                if position >= 0 && position + 1 < length { bytes[position + 1] = 0x0A }
                for start in [0, 1, 7, 9] where start <= length {
                    let expected = bytes[start...].firstIndex(of: 0x0A)
                    let found = bytes.withUnsafeBufferPointer { HTTPRequestParser.firstIndex(of: 0x0A, in: $0, from: start) }
                    #expect(found == expected, "length \(length), match at \(position), from \(start)")
                }
            }
        }
    }
}
