// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// The strict `multipart/form-data` parser of the file storage.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MultipartFormDataTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func boundaryIsReadFromTheContentTypeQuotedOrNot() throws {
        #expect(try MultipartFormData.boundary(ofContentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(try MultipartFormData.boundary(ofContentType: "Multipart/Form-Data;charset=utf-8; BOUNDARY=\"a b\"") == "a b")
        #expect(throws: MultipartError.notMultipart) { try MultipartFormData.boundary(ofContentType: "application/json") }
        #expect(throws: MultipartError.notMultipart) { try MultipartFormData.boundary(ofContentType: nil) }
        #expect(throws: MultipartError.missingBoundary) { try MultipartFormData.boundary(ofContentType: "multipart/form-data") }
        #expect(throws: MultipartError.invalidBoundary) {
            try MultipartFormData.boundary(ofContentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71))
        }
    }

    @Test func fieldsAndFileComeOutInOrderWithExactBytes() throws {
        let body = "preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nsub/ch/id/a.txt\r\n"
            + "--XyZ\r\ncontent-disposition: form-data; name=Policy\r\n\r\n\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a \\\"b\\\".txt\"\r\nContent-Type: text/plain\r\n\r\n"
            + "line1\r\n-XyZ --XyZ\r\n\r\n--XyZ--\r\nepilogue"
        let form = try MultipartFormData.parse(Self.bytes(body), boundary: "XyZ")
        #expect(form.parts == [
            .init(name: "key", body: Self.bytes("sub/ch/id/a.txt")),
            .init(name: "Policy", body: []),
            .init(name: "file", fileName: "a \"b\".txt", contentType: "text/plain", body: Self.bytes("line1\r\n-XyZ --XyZ\r\n")),
        ])
    }

    @Test func encodedPartsParseBackToThemselves() throws {
        let parts: [MultipartFormData.Part] = [
            .init(name: "tagging", body: Self.bytes("<Tagging/>")),
            .init(name: "we\"ird\\", body: []),
            .init(name: "file", fileName: "x.bin", contentType: "application/octet-stream", body: [0, 13, 10, 45, 45, 255]),
        ]
        let encoded = MultipartFormData.encode(parts, boundary: "b0undary")
        #expect(try MultipartFormData.parse(encoded, boundary: "b0undary").parts == parts)
    }

    @Test func malformedBodiesAreRefusedWithTheirReason() {
        let cases: [(String, MultipartError)] = [
            ("no boundary at all", .missingFirstBoundary),
            ("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue", .missingClosingBoundary),
            ("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n--b", .invalidDelimiterLine),
            ("--bX\r\n", .invalidDelimiterLine),
            ("--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--", .missingContentDisposition),
            ("--b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--b--", .missingContentDisposition),
            ("--b\r\nContent-Disposition: form-data; filename=\"a\"\r\n\r\nv\r\n--b--", .missingFieldName),
            ("--b\r\nContent-Disposition: form-data; name=\"a\r\n\r\nv\r\n--b--", .invalidPartHeader),
            ("--b\r\nno colon here\r\n\r\nv\r\n--b--", .invalidPartHeader),
            ("--b\r\nContent-Disposition: form-data; name=\"a\"; name=\"b\"\r\n\r\nv\r\n--b--", .invalidPartHeader),
            ("--b\r\nContent-Disposition: form-data; name=\"a\"", .missingClosingBoundary),
        ]
        for (body, error) in cases {
            #expect(throws: error, "\(body)") { try MultipartFormData.parse(Self.bytes(body), boundary: "b") }
        }
    }

    @Test func limitsBoundPartsAndHeaders() {
        let part = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n"
        let many = String(repeating: part, count: 3) + "--b--"
        #expect(throws: MultipartError.tooManyParts(limit: 2)) {
            try MultipartFormData.parse(Self.bytes(many), boundary: "b", limits: .init(maxParts: 2))
        }
        let long = "--b\r\nContent-Disposition: form-data; name=\"" + String(repeating: "n", count: 200) + "\"\r\n\r\nv\r\n--b--"
        #expect(throws: MultipartError.partHeadersTooLarge(limit: 64)) {
            try MultipartFormData.parse(Self.bytes(long), boundary: "b", limits: .init(maxPartHeaderBytes: 64))
        }
    }

    @Test func uploadPathsGetTheirOwnBodyLimit() throws {
        var limits = HTTPRequestParser.Limits(maxBodyBytes: 10)
        limits.bodyLimitOverrides = [BodyLimitOverride(pathPrefix: "/file-storage/", maxBodyBytes: 100)]
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Self.bytes("POST /file-storage/k/c HTTP/1.1\r\nContent-Length: 50\r\n\r\n" + String(repeating: "x", count: 50)))
        #expect(try parser.next()?.request.body.count == 50)
        parser.append(Self.bytes("POST /publish/k/k/0/c/0 HTTP/1.1\r\nContent-Length: 50\r\n\r\n"))
        #expect(throws: HTTPParseError.bodyTooLarge(limit: 10)) { try parser.next() }
    }
}
