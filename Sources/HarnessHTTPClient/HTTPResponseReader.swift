// SPDX-License-Identifier: MIT

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

    mutating func read() throws(HTTPClientError) -> HTTPClientResponse {
        while true {
            let statusLine = try readLine(limit: Self.maxHeaderBytes)
            let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]), (100...999).contains(code) else {
                throw .malformedHTTP("bad status line \"\(statusLine.prefix(80))\"")
            }
            var headers: [(name: String, value: String)] = []
            var headerBytes = 0
            while true {
                let line = try readLine(limit: Self.maxHeaderBytes)
                if line.isEmpty { break }
                headerBytes += line.utf8.count
                if headerBytes > Self.maxHeaderBytes { throw .malformedHTTP("headers too large") }
                guard let colon = line.firstIndex(of: ":") else { throw .malformedHTTP("bad header line") }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingSpaces()
                headers.append((name, value))
            }
            if (100..<200).contains(code) { continue }
            let closes = headers.contains { $0.name == "connection" && $0.value.lowercased().contains("close") }
            connectionReusable = parts[0] == "HTTP/1.1" && !closes
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
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces() } ?? ""
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

extension StringProtocol {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
