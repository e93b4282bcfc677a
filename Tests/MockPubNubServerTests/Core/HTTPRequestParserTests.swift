// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct HTTPRequestParserTests {
    private func parseAll(_ text: String, limits: HTTPRequestParser.Limits = .init()) throws -> [HTTPRequestParser.Parsed] {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(text.utf8))
        var out: [HTTPRequestParser.Parsed] = []
        while let parsed = try parser.next() { out.append(parsed) }
        return out
    }

    /// Feeds the bytes one at a time and returns every request, or the error.
    private func parseByteByByte(_ bytes: [UInt8], limits: HTTPRequestParser.Limits = .init()) -> Result<[HTTPRequestParser.Parsed], HTTPParseError> {
        var parser = HTTPRequestParser(limits: limits)
        var out: [HTTPRequestParser.Parsed] = []
        for byte in bytes {
            parser.append([byte])
            do {
                while let parsed = try parser.next() { out.append(parsed) }
            } catch {
                return .failure(error)
            }
        }
        return .success(out)
    }

    @Test func anIdleBufferIsFreedAndABufferedPartialRequestIsKept() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(try parser.next()?.request.target == "/a")
        #expect(parser.buffer.capacity > 0)
        parser.releaseIdleBuffer()
        #expect(parser.buffer.capacity == 0)
        // Half a request arrives: nothing may be dropped.
        parser.append(Array("GET /b HTTP/1.1\r\nHo".utf8))
        #expect(try parser.next() == nil)
        parser.releaseIdleBuffer()
        #expect(parser.bufferedByteCount > 0)
        parser.append(Array("st: h\r\nContent-Length: 2\r\n\r\nhi".utf8))
        let second = try #require(try parser.next())
        #expect(second.request.target == "/b" && second.request.body == Array("hi".utf8))
        parser.releaseIdleBuffer()
        parser.append(Array("GET /c HTTP/1.1\r\n\r\n".utf8))
        #expect(try parser.next()?.request.target == "/c")
    }

    private func parseError(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPParseError? {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(text.utf8))
        do {
            while try parser.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    @Test func simpleGetWithHeaders() throws {
        let parsed = try parseAll("GET /time/0?uuid=a HTTP/1.1\r\nHost: x\r\nUser-Agent:  t  \r\n\r\n")
        #expect(parsed.count == 1)
        let request = try #require(parsed.first).request
        #expect(request.method == "GET")
        #expect(request.target == "/time/0?uuid=a")
        #expect(request.rawPath == "/time/0")
        #expect(request.rawQuery == "uuid=a")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headers == HTTPHeaders([("Host", "x"), ("User-Agent", "t")]))
        #expect(request.body == [])
        #expect(parsed[0].keepAlive)
    }

    @Test func keepAliveRules() throws {
        #expect(try parseAll("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")[0].keepAlive == false)
        #expect(try parseAll("GET / HTTP/1.0\r\n\r\n")[0].keepAlive == false)
        #expect(try parseAll("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")[0].keepAlive == true)
        #expect(try parseAll("GET / HTTP/1.1\r\nConnection: upgrade, CLOSE\r\n\r\n")[0].keepAlive == false)
    }

    @Test func connectionTokensAreMatchedWholeInAnyCaseAcrossFields() throws {
        // Spaces and tabs around a token, several fields, names in any case.
        #expect(try parseAll("GET / HTTP/1.0\r\nconnection: foo ,\t KEEP-alive \t\r\n\r\n")[0].keepAlive == true)
        #expect(try parseAll("GET / HTTP/1.1\r\nCONNECTION: keep-alive\r\nConnection: ,close,\r\n\r\n")[0].keepAlive == false)
        // A token only counts whole: neither `closed` nor `keep-alive2` nor `clo se` is one.
        #expect(try parseAll("GET / HTTP/1.1\r\nConnection: closed, clo se\r\n\r\n")[0].keepAlive == true)
        #expect(try parseAll("GET / HTTP/1.0\r\nConnection: keep-alive2\r\n\r\n")[0].keepAlive == false)
        #expect(try parseAll("GET / HTTP/1.0\r\nConnection:\r\n\r\n")[0].keepAlive == false)
        // Another field whose name starts like a framing field is not one.
        #expect(try parseAll("GET / HTTP/1.1\r\nConnection-Extra: close\r\nContent-Lengths: 5\r\n\r\n")[0].keepAlive == true)
    }

    @Test func framingFieldsAreFoundInAnyCaseAndEveryRequestStartsAfresh() throws {
        let text = "POST /a HTTP/1.1\r\ncontent-LENGTH: 2\r\nConnection: close\r\n\r\nhiPOST /b HTTP/1.1\r\n"
            + "TRANSFER-encoding: Chunked\r\n\r\n1\r\nz\r\n0\r\n\r\nGET /c HTTP/1.1\r\n\r\n"
        let parsed = try parseAll(text)
        #expect(parsed.map(\.request.body) == [Array("hi".utf8), Array("z".utf8), []])
        #expect(parsed.map(\.keepAlive) == [false, true, true])
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 2\r\ntransfer-encoding: chunked\r\n\r\n")
            == .conflictingContentLengthAndTransferEncoding)
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 3\r\n\r\n") == .invalidContentLength)
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nEXPECT: 100-Continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.expectsContinue)
    }

    @Test func contentLengthBody() throws {
        let parsed = try parseAll("POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello")
        #expect(parsed.map(\.request.body) == [Array("hello".utf8)])
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        let text = "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\nA\r\n, world!!!\r\n0\r\nX-T: 1\r\n\r\n"
        let parsed = try parseAll(text)
        #expect(parsed.map(\.request.body) == [Array("hello, world!!!".utf8)])
    }

    @Test func pipelinedRequestsComeOutInOrder() throws {
        let text = "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiGET /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n"
        let parsed = try parseAll(text)
        #expect(parsed.map(\.request.target) == ["/a", "/b", "/c"])
        #expect(parsed.map(\.request.body) == [[], Array("hi".utf8), Array("z".utf8)])
    }

    @Test func everySplitPointGivesTheSameRequests() throws {
        let text = "\r\nGET /a%2Fb/c?x=1&y=%20 HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcPUT /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n"
        let bytes = Array(text.utf8)
        let whole = try parseAll(text)
        #expect(whole.count == 3)
        for split in 0...bytes.count {
            var parser = HTTPRequestParser()
            var out: [HTTPRequestParser.Parsed] = []
            parser.append(Array(bytes[..<split]))
            while let parsed = try parser.next() { out.append(parsed) }
            parser.append(Array(bytes[split...]))
            while let parsed = try parser.next() { out.append(parsed) }
            #expect(out == whole, "split at \(split)")
        }
        #expect(try parseByteByByte(bytes).get() == whole)
        #expect(whole[0].request.pathSegments == ["a/b", "c"])
    }

    @Test func leadingEmptyLinesAreIgnoredAndBareLFAccepted() throws {
        let parsed = try parseAll("\r\n\nGET /x HTTP/1.1\nHost: a\n\n")
        #expect(parsed.map(\.request.target) == ["/x"])
        #expect(parsed[0].request.headers["host"] == "a")
    }

    @Test(arguments: [
        ("GET /\r\n\r\n", HTTPParseError.invalidRequestLine),
        ("GET  / HTTP/1.1\r\n\r\n", .invalidRequestLine),
        ("G(T / HTTP/1.1\r\n\r\n", .invalidRequestLine),
        ("GET / HTTX/1.1\r\n\r\n", .invalidRequestLine),
        ("GET / HTTP/2.0\r\n\r\n", .unsupportedVersion("HTTP/2.0")),
        ("GET / HTTP/1.1\r\nNoColon\r\n\r\n", .invalidHeader),
        ("GET / HTTP/1.1\r\nBad Name: v\r\n\r\n", .invalidHeader),
        ("GET / HTTP/1.1\r\n: v\r\n\r\n", .invalidHeader),
        ("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", .invalidHeader),
        ("POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", .conflictingContentLengthAndTransferEncoding),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferEncoding("gzip, chunked")),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .invalidChunkedBody),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", .invalidChunkedBody),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", .invalidChunkedBody),
    ])
    func malformedInputIsATypedError(text: String, expected: HTTPParseError) {
        #expect(parseError(text) == expected)
        #expect(parseByteByByte(Array(text.utf8)).failure == expected)
    }

    /// Bytes a request-target may not hold, before, inside and after the first eight-byte block.
    @Test(arguments: [1, 7, 8, 9, 16, 23])
    func aControlByteOrDELAnywhereInTheTargetIsRefused(offset: Int) {
        for bad: UInt8 in [0x01, 0x09, 0x1F, 0x7F] {
            var target = Array("/publish/pub/sub/0/ch/0/%22hi%22".utf8)
            target[offset] = bad
            let bytes = Array("GET ".utf8) + target + Array(" HTTP/1.1\r\n\r\n".utf8)
            #expect(parseByteByByte(bytes).failure == .invalidRequestLine)
            var parser = HTTPRequestParser()
            parser.append(bytes)
            #expect(throws: HTTPParseError.invalidRequestLine) { try parser.next() }
        }
    }

    /// A field value's bytes, checked eight at a time: a control byte (the tab aside) or DEL
    /// before, inside and after the first eight-byte block is refused; tabs, spaces and bytes
    /// from 0x80 up are kept, and the spaces and tabs around the value are trimmed.
    @Test(arguments: [0, 1, 7, 8, 9, 16, 23])
    func aControlByteOrDELAnywhereInAFieldValueIsRefused(offset: Int) throws {
        let value = Array("abcdefgh-ijklmnop-qrstuvwx".utf8)
        for bad: UInt8 in [0x00, 0x01, 0x0B, 0x1F, 0x7F] {
            var spoilt = value
            spoilt[offset] = bad
            let bytes = Array("GET / HTTP/1.1\r\nX-Value: ".utf8) + spoilt + Array("\r\n\r\n".utf8)
            #expect(parseByteByByte(bytes).failure == .invalidHeader)
            var parser = HTTPRequestParser()
            parser.append(bytes)
            #expect(throws: HTTPParseError.invalidHeader) { try parser.next() }
        }
        var kept = value
        kept[offset] = 0x09
        kept[(offset + 5) % kept.count] = 0xC3
        kept[(offset + 6) % kept.count] = 0xA9
        let bytes = Array("GET / HTTP/1.1\r\nX-Value: \t ".utf8) + kept + Array(" \t \r\n\r\n".utf8)
        var parser = HTTPRequestParser()
        parser.append(bytes)
        let request = try #require(try parser.next()).request
        var trimmed = kept[...]
        while let first = trimmed.first, first == 0x09 || first == 0x20 { trimmed = trimmed.dropFirst() }
        #expect(request.headers["X-Value"].map { Array($0.utf8) } == Array(trimmed))
    }

    @Test func aTooLongTargetIsRefusedAs414BeforeItsBadBytes() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 64, maxTargetBytes: 32, maxBodyBytes: 10)
        let target = "/" + String(repeating: "a", count: 20) + "\u{7F}" + String(repeating: "b", count: 20)
        #expect(parseError("GET " + target + " HTTP/1.1\r\n\r\n", limits: limits) == .targetTooLong(limit: 32))
        #expect(parseError("G(T " + target + " HTTP/1.1\r\n\r\n", limits: limits) == .invalidRequestLine)
    }

    @Test func methodsAndCommonFieldsReadAsSent() throws {
        let text = "PUT /a/b/c/d/e/f/g/h?x=1 HTTP/1.0\r\nHOST: h\r\nConnection: Keep-Alive\r\ncontent-type: t\r\n"
            + "Accept-Encoding: gzip\r\nContent-Length: 0\r\n\r\n"
            + "POST /p HTTP/1.1\r\nContent-Length: 0\r\n\r\nHEAD /h HTTP/1.1\r\n\r\nGETS /g HTTP/1.1\r\n\r\n"
        let parsed = try parseAll(text)
        #expect(parsed.map(\.request.method) == ["PUT", "POST", "HEAD", "GETS"])
        let first = try #require(parsed.first)
        #expect(first.request.headers == HTTPHeaders([
            ("HOST", "h"), ("Connection", "Keep-Alive"), ("content-type", "t"), ("Accept-Encoding", "gzip"), ("Content-Length", "0"),
        ]))
        #expect(first.keepAlive)
        #expect(first.request.version == "HTTP/1.0")
        #expect(first.request.rawPath == "/a/b/c/d/e/f/g/h")
        #expect(parsed[3].request.target == "/g")
        let accented = try parseAll("GET /caf\u{E9}/x?q=\u{E9} HTTP/1.1\r\n\r\n")
        #expect(accented.first?.request.rawPath == "/caf\u{E9}/x")
        #expect(accented.first?.request.rawQuery == "q=\u{E9}")
    }

    @Test func tokenBytesAreExactlyRFC9110s() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPRequestParser.isTokenByte(byte) == tchars.contains(byte), "byte \(byte)")
        }
    }

    @Test func aHeadWithAnUpgradeFieldIsMarked() throws {
        let parsed = try parseAll(
            "GET /a HTTP/1.1\r\nUpgrade: websocket\r\n\r\n"
                + "GET /b HTTP/1.1\r\nuPGRADE: h2c\r\n\r\n"
                + "GET /c HTTP/1.1\r\nUpgrades: websocket\r\nConnection: upgrade\r\n\r\n"
                + "GET /d HTTP/1.1\r\n\r\n")
        #expect(parsed.map(\.hasUpgradeField) == [true, true, false, false])
        #expect(parsed.map(\.request.rawPath) == ["/a", "/b", "/c", "/d"])
    }

    /// The word-wise comparison of a field name or token with a lower-case literal agrees with
    /// folding byte by byte, for every byte value at every place (in and after the first eight).
    @Test func caseInsensitiveLiteralComparisonAgreesWithFoldingEachByte() {
        let literals: [StaticString] = ["connection", "keep-alive", "close", "expect", "content-length", "transfer-encoding"]
        var mismatches: [String] = []
        for literal in literals {
            let expected = literal.withUTF8Buffer { Array($0) }
            for place in expected.indices {
                for value in UInt8.min...UInt8.max {
                    var bytes = expected
                    bytes[place] = value
                    let folded = value >= 0x41 && value <= 0x5A ? value | 0x20 : value
                    let agrees = bytes.withUnsafeBufferPointer { HTTPRequestParser.asciiCaseInsensitiveEquals($0, literal) }
                    if agrees != (folded == expected[place]) { mismatches.append("\(literal) byte \(value) at \(place)") }
                }
            }
            let upper = expected.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            #expect(upper.withUnsafeBufferPointer { HTTPRequestParser.asciiCaseInsensitiveEquals($0, literal) })
            let longer = expected + [0x20]
            #expect(!longer.withUnsafeBufferPointer { HTTPRequestParser.asciiCaseInsensitiveEquals($0, literal) })
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func limitsGive414And431And413() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 64, maxTargetBytes: 32, maxBodyBytes: 10)
        let longTarget = "GET /" + String(repeating: "a", count: 32) + " HTTP/1.1\r\n\r\n"
        #expect(parseError(longTarget, limits: limits) == .targetTooLong(limit: 32))
        // Without the end of the line the limit still applies (target + method + version slack).
        #expect(parseError("GET /" + String(repeating: "a", count: 200), limits: limits) == .targetTooLong(limit: 32))
        let exactTarget = "GET /" + String(repeating: "a", count: 31) + " HTTP/1.1\r\n\r\n"
        #expect(parseError(exactTarget, limits: limits) == nil)
        let bigHeaders = "GET / HTTP/1.1\r\nX: " + String(repeating: "b", count: 80) + "\r\n\r\n"
        #expect(parseError(bigHeaders, limits: limits) == .headersTooLarge(limit: 64))
        #expect(parseByteByByte(Array(bigHeaders.utf8), limits: limits).failure == .headersTooLarge(limit: 64))
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", limits: limits) == .bodyTooLarge(limit: 10))
        #expect(parseError("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits) == nil)
        let chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n5\r\n"
        #expect(parseError(chunked, limits: limits) == .bodyTooLarge(limit: 10))
    }

    @Test func errorIsStickyAndMapsToStatus() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("BAD\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8))
        #expect(throws: HTTPParseError.invalidRequestLine) { try parser.next() }
        #expect(throws: HTTPParseError.invalidRequestLine) { try parser.next() }
        #expect(HTTPParseError.targetTooLong(limit: 1).status == 414)
        #expect(HTTPParseError.headersTooLarge(limit: 1).status == 431)
        #expect(HTTPParseError.bodyTooLarge(limit: 1).status == 413)
        #expect(HTTPParseError.invalidHeader.status == 400)
        #expect(
            BalancerErrors.response(for: .targetTooLong(limit: 1)).body
                == Array("{\"status\":414,\"service\":\"Balancer\",\"error\":true,\"message\":\"Request URI Too Long\"}\n".utf8))
        #expect(BalancerErrors.response(for: .targetTooLong(limit: 1)).headers["Content-Type"] == "text/javascript; charset=UTF-8")
        #expect(BalancerErrors.response(for: .invalidHeader).headers["Content-Type"] == #"text/javascript; charset="UTF-8""#)
        #expect(HTTPParseError.bodyTooLarge(limit: 1).plainResponse.body == Array("Content Too Large\n".utf8))
    }

    @Test func expectContinueIsFlaggedUntilTheBodyArrives() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.expectsContinue)
        parser.append(Array("ok".utf8))
        #expect(try parser.next()?.request.body == Array("ok".utf8))
        #expect(!parser.expectsContinue)
    }

    @Test func encoderAddsFramingHeaders() {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain", "content-length": "99"], body: Array("hi".utf8))
        let text = String(decoding: HTTPResponseEncoder.encode(response, keepAlive: true), as: UTF8.self)
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nhi")
        let head = String(decoding: HTTPResponseEncoder.encode(response, keepAlive: false, headRequest: true), as: UTF8.self)
        #expect(head == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
    }

    @Test(arguments: [0, 1, 9, 10, 99, 100, 1_000_000, 123_456_789, Int.max, -1, Int.min])
    func decimalsAreWrittenAsStringWritesThem(_ value: Int) {
        var out: [UInt8] = [0x41]
        HTTPResponseEncoder.appendDecimal(value, to: &out)
        #expect(out == [0x41] + Array(String(value).utf8))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
