// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Helpers of the cross-origin and compression tests: one exchange on a fresh connection, and
/// the head with its `Date` line checked and taken out (the only field that changes per second).
enum CrossOrigin {
    /// The complete response to `request` (sent as it is) on a fresh connection.
    static func send(port: Int, _ request: String) throws -> HTTPResponseText {
        let client = try BlockingTestClient(port: port)
        client.send(request)
        guard let text = client.readResponse(timeoutMs: TestTime.budgetMs(3000)) else {
            throw BlockingTestClient.ClientError(description: "no complete response to \(request.prefix(60))")
        }
        return HTTPResponseText(Array(text.utf8))
    }

    /// The bytes of one response read whole (for bodies that are not UTF-8: gzip).
    static func sendRaw(port: Int, _ request: String) throws -> (head: HTTPResponseText, body: [UInt8]) {
        let client = try BlockingTestClient(port: port)
        client.send(request)
        let (bytes, _) = client.readToEnd(timeoutMs: TestTime.budgetMs(3000))
        let parsed = HTTPResponseText(bytes)
        return (parsed, parsed.body)
    }

    /// `head` without its `Date` line, after checking that there is exactly one, in IMF-fixdate form.
    static func undated(_ head: String) -> String {
        let lines = head.components(separatedBy: "\r\n")
        let dates = lines.filter { $0.hasPrefix("Date: ") }
        #expect(dates.count == 1, "one Date line in \(head)")
        if let date = dates.first {
            #expect(date.count == 6 + 29 && date.hasSuffix(" GMT"), "IMF-fixdate: \(date)")
        }
        return lines.filter { !$0.hasPrefix("Date: ") }.joined(separator: "\r\n")
    }

    /// A preflight for `method` on `target` asking for `headers`.
    static func preflight(_ target: String, method: String, headers: String?) -> String {
        var text = "OPTIONS \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:9\r\n"
        text += "Access-Control-Request-Method: \(method)\r\n"
        if let headers { text += "Access-Control-Request-Headers: \(headers)\r\n" }
        return text + "Connection: close\r\n\r\n"
    }

    /// The head of an INFERRED preflight answer (fields of the path's rule, then the preflight's).
    static func preflightHead(methods: String, allowHeaders: String?, credentials: Bool = false, expose: Bool = false) -> String {
        var lines = ["HTTP/1.1 204 No Content", "Access-Control-Allow-Methods: \(methods)"]
        if let allowHeaders { lines.append("Access-Control-Allow-Headers: \(allowHeaders)") }
        lines += ["Access-Control-Max-Age: 86400", "Vary: Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
                  "Access-Control-Allow-Origin: *"]
        if credentials { lines.append("Access-Control-Allow-Credentials: true") }
        if expose { lines.append("Access-Control-Expose-Headers: *") }
        lines += ["Content-Length: 0", "Connection: close"]
        return lines.joined(separator: "\r\n")
    }
}
