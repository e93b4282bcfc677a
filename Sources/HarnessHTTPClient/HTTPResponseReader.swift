// SPDX-License-Identifier: MIT
import HarnessHTTP

/// Reads one HTTP/1.1 response from a stream: status line, headers, then a body framed by
/// Content-Length, chunked transfer coding, or the end of the connection.
struct HTTPResponseReader {
    static let maxHeaderBytes = 64 * 1024
    static let maxBodyBytes = 64 * 1024 * 1024

    private let stream: any ByteStream
    private let deadline: Deadline
    private var buffer: [UInt8] = []
    private var received = 0
    /// Whether the last response may be followed by another on the same connection: HTTP/1.1,
    /// no `Connection: close`, framed by length or chunks, and no bytes beyond it.
    private(set) var connectionReusable = false

    init(stream: any ByteStream, deadline: Deadline) {
        self.stream = stream
        self.deadline = deadline
    }

    /// Reads more bytes; returns false at end of stream.
    private mutating func fill() throws(HTTPClientError) -> Bool {
        let chunk = try stream.receive(maxCount: 16 * 1024, deadline: deadline)
        if chunk.isEmpty { return false }
        received += chunk.count
        buffer += chunk
        return true
    }

    private mutating func readLine(limit: Int) throws(HTTPClientError) -> String {
        while true {
            if let lf = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<lf])
                if line.last == 0x0D { line.removeLast() }
                buffer.removeFirst(lf + 1)
                return String(decoding: line, as: UTF8.self)
            }
            if buffer.count > limit { throw .malformedHTTP("header line longer than \(limit) bytes") }
            if try !fill() { throw .closedBeforeResponse(receivedBytes: received) }
        }
    }

    /// Reads the next response head with ``HTTPResponseHead/parse(_:maxLength:)``, the package's one head reader.
    private mutating func readHead() throws(HTTPClientError) -> HTTPResponseHead {
        while true {
            do throws(HTTPResponseHeadError) {
                if let (head, consumed) = try HTTPResponseHead.parse(buffer, maxLength: Self.maxHeaderBytes) {
                    buffer.removeFirst(consumed)
                    return head
                }
            } catch {
                throw .malformedHTTP(error.description)
            }
            if try !fill() { throw .closedBeforeResponse(receivedBytes: received) }
        }
    }

    mutating func read() throws(HTTPClientError) -> HTTPClientResponse {
        while true {
            let head = try readHead()
            let code = head.status
            let headers = head.headers.fields.map { (name: $0.name.lowercased(), value: $0.value) }
            if (100..<200).contains(code) { continue }
            let closes = headers.contains { $0.name == "connection" && $0.value.lowercased().contains("close") }
            connectionReusable = head.version == "HTTP/1.1" && !closes
            let body = try readBody(headers: headers, statusCode: code)
            if !buffer.isEmpty { connectionReusable = false }
            return HTTPClientResponse(statusCode: code, headers: headers, body: body)
        }
    }

    private mutating func readBody(headers: [(name: String, value: String)], statusCode: Int) throws(HTTPClientError) -> [UInt8] {
        if statusCode == 204 || statusCode == 304 { return [] }
        if let coding = headers.first(where: { $0.name == "transfer-encoding" })?.value, coding.lowercased().contains("chunked") {
            return try readChunked()
        }
        if let lengthText = headers.first(where: { $0.name == "content-length" })?.value {
            guard let length = Int(lengthText), length >= 0, length <= Self.maxBodyBytes else {
                throw .malformedHTTP("bad Content-Length \"\(lengthText)\"")
            }
            while buffer.count < length {
                if try !fill() { throw .closedBeforeResponse(receivedBytes: received) }
            }
            let body = Array(buffer[0..<length])
            buffer.removeFirst(length)
            return body
        }
        connectionReusable = false
        while try fill() {
            if buffer.count > Self.maxBodyBytes { throw .malformedHTTP("body too large") }
        }
        defer { buffer = [] }
        return buffer
    }

    private mutating func readChunked() throws(HTTPClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine(limit: 1024)
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingHTTPWhitespace() } ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0 else { throw .malformedHTTP("bad chunk size \"\(sizeLine.prefix(40))\"") }
            if size == 0 {
                while try !readLine(limit: Self.maxHeaderBytes).isEmpty {}
                return body
            }
            guard body.count + size <= Self.maxBodyBytes else { throw .malformedHTTP("body too large") }
            while buffer.count < size + 2 {
                if try !fill() { throw .closedBeforeResponse(receivedBytes: received) }
            }
            body += buffer[0..<size]
            guard buffer[size] == 0x0D, buffer[size + 1] == 0x0A else { throw .malformedHTTP("chunk not followed by CRLF") }
            buffer.removeFirst(size + 2)
        }
    }
}

