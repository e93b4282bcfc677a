// SPDX-License-Identifier: MIT

/// A `multipart/form-data` body (RFC 7578 over RFC 2046 §5.1) split into its parts, in order.
///
/// Pure and strict: the body must hold the dash-boundary delimiter, every part needs a
/// `Content-Disposition: form-data` header with a `name`, lines end in CRLF, and the closing
/// delimiter (`--boundary--`) must be present. A preamble before the first delimiter and an
/// epilogue after the closing one are ignored, as RFC 2046 says.
package struct MultipartFormData: Sendable, Hashable {
    /// One part: its form field name, the file name if it carried one, and its bytes.
    package struct Part: Sendable, Hashable {
        /// The `name` parameter of `Content-Disposition`.
        package var name: String
        /// The `filename` parameter, when present.
        package var fileName: String?
        /// The part's own `Content-Type`, when present.
        package var contentType: String?
        /// The part's content, exactly as sent.
        package var body: [UInt8]

        package init(name: String, fileName: String? = nil, contentType: String? = nil, body: [UInt8]) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.body = body
        }

        /// The content as UTF-8 text (invalid sequences repaired).
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Bounds on what one body may hold.
    package struct Limits: Sendable, Hashable {
        /// The most parts accepted.
        package var maxParts: Int
        /// The most bytes of header lines in one part.
        package var maxPartHeaderBytes: Int

        package init(maxParts: Int = 64, maxPartHeaderBytes: Int = 8 * 1024) {
            self.maxParts = maxParts
            self.maxPartHeaderBytes = maxPartHeaderBytes
        }
    }

    /// The parts in body order.
    package var parts: [Part]

    package init(parts: [Part]) {
        self.parts = parts
    }

    /// The boundary parameter of a `multipart/form-data` Content-Type value.
    package static func boundary(ofContentType value: String?) throws(MultipartError) -> String {
        guard let value else { throw .notMultipart }
        let pieces = value.split(separator: ";", omittingEmptySubsequences: false)
        guard let type = pieces.first, type.trimmingSpaces.lowercased() == "multipart/form-data" else { throw .notMultipart }
        for piece in pieces.dropFirst() {
            let parameter = piece.trimmingSpaces
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            guard parameter[..<equals].lowercased() == "boundary" else { continue }
            var boundary = String(parameter[parameter.index(after: equals)...])
            if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 {
                boundary = String(boundary.dropFirst().dropLast())
            }
            // RFC 2046 §5.1.1: 1 to 70 characters, none of them a control character.
            guard (1...70).contains(boundary.utf8.count), boundary.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
                boundary.utf8.last != 0x20
            else { throw .invalidBoundary }
            return boundary
        }
        throw .missingBoundary
    }

    /// Splits `body` at `boundary`.
    package static func parse(
        _ body: [UInt8], boundary: String, limits: Limits = Limits()
    ) throws(MultipartError) -> MultipartFormData {
        let dashBoundary = Array(("--" + boundary).utf8)
        let delimiter = [0x0D, 0x0A] + dashBoundary
        // The first delimiter opens the body, or ends a preamble with CRLF before it.
        var position: Int
        if body.starts(with: dashBoundary) {
            position = dashBoundary.count
        } else if let found = find(delimiter, in: body, from: 0) {
            position = found + delimiter.count
        } else {
            throw .missingFirstBoundary
        }
        var parts: [Part] = []
        while true {
            // After a delimiter: `--` closes the body; otherwise optional padding, then CRLF.
            if body.count - position >= 2, body[position] == 0x2D, body[position + 1] == 0x2D { break }
            while position < body.count, body[position] == 0x20 || body[position] == 0x09 { position += 1 }
            guard body.count - position >= 2, body[position] == 0x0D, body[position + 1] == 0x0A else {
                throw .invalidDelimiterLine
            }
            position += 2
            guard parts.count < limits.maxParts else { throw .tooManyParts(limit: limits.maxParts) }
            let head = try partHead(body, from: &position, limits: limits)
            guard let end = find(delimiter, in: body, from: position) else { throw .missingClosingBoundary }
            parts.append(Part(name: head.name, fileName: head.fileName, contentType: head.contentType,
                              body: Array(body[position..<end])))
            position = end + delimiter.count
        }
        return MultipartFormData(parts: parts)
    }

    /// The body `parse` reads back as `parts` (CRLF lines, quoted parameters), for tests and the fuzz target.
    package static func encode(_ parts: [Part], boundary: String) -> [UInt8] {
        var out: [UInt8] = []
        for part in parts {
            out.append(contentsOf: "--\(boundary)\r\nContent-Disposition: form-data; name=\(quoted(part.name))".utf8)
            if let fileName = part.fileName { out.append(contentsOf: "; filename=\(quoted(fileName))".utf8) }
            out.append(contentsOf: "\r\n".utf8)
            if let type = part.contentType { out.append(contentsOf: "Content-Type: \(type)\r\n".utf8) }
            out.append(contentsOf: "\r\n".utf8)
            out.append(contentsOf: part.body)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: "--\(boundary)--\r\n".utf8)
        return out
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }

    private struct Head {
        var name: String
        var fileName: String?
        var contentType: String?
    }

    /// Reads a part's header lines up to the empty line; `position` ends at the first content byte.
    private static func partHead(_ body: [UInt8], from position: inout Int, limits: Limits) throws(MultipartError) -> Head {
        let start = position
        var disposition: String?
        var contentType: String?
        while true {
            guard let lf = find([0x0D, 0x0A], in: body, from: position, within: start + limits.maxPartHeaderBytes + 2 - position)
            else {
                if body.count - start > limits.maxPartHeaderBytes { throw .partHeadersTooLarge(limit: limits.maxPartHeaderBytes) }
                throw .missingClosingBoundary
            }
            let line = body[position..<lf]
            position = lf + 2
            if line.isEmpty { break }
            guard position - start <= limits.maxPartHeaderBytes else { throw .partHeadersTooLarge(limit: limits.maxPartHeaderBytes) }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy(HTTPRequestParser.isTokenByte),
                !line.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F })
            else { throw .invalidPartHeader }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self)[...].trimmingSpaces
            switch name {
            case "content-disposition":
                guard disposition == nil else { throw .invalidPartHeader }
                disposition = value
            case "content-type":
                contentType = value
            default:
                continue
            }
        }
        guard let disposition else { throw .missingContentDisposition }
        let (type, parameters) = try dispositionParameters(disposition)
        guard type == "form-data" else { throw .missingContentDisposition }
        guard let name = parameters["name"] else { throw .missingFieldName }
        return Head(name: name, fileName: parameters["filename"], contentType: contentType)
    }

    /// `form-data; name="a"; filename=b` → ("form-data", [name: a, filename: b]); quoted strings
    /// take `\` escapes (RFC 9110 §5.6.4).
    private static func dispositionParameters(_ value: String) throws(MultipartError) -> (String, [String: String]) {
        let scalars = Array(value.unicodeScalars)
        var index = 0
        func skipSpaces() { while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 } }
        func token() -> String {
            var text = ""
            while index < scalars.count, scalars[index] != ";", scalars[index] != "=", scalars[index] != " ", scalars[index] != "\t" {
                text.unicodeScalars.append(scalars[index])
                index += 1
            }
            return text
        }
        let type = token().lowercased()
        var parameters: [String: String] = [:]
        while true {
            skipSpaces()
            guard index < scalars.count else { break }
            guard scalars[index] == ";" else { throw .invalidPartHeader }
            index += 1
            skipSpaces()
            if index == scalars.count { break }
            let name = token().lowercased()
            skipSpaces()
            guard !name.isEmpty, index < scalars.count, scalars[index] == "=" else { throw .invalidPartHeader }
            index += 1
            skipSpaces()
            var parameterValue = ""
            if index < scalars.count, scalars[index] == "\"" {
                index += 1
                var closed = false
                while index < scalars.count {
                    let scalar = scalars[index]
                    index += 1
                    if scalar == "\"" { closed = true; break }
                    if scalar == "\\", index < scalars.count {
                        parameterValue.unicodeScalars.append(scalars[index])
                        index += 1
                    } else {
                        parameterValue.unicodeScalars.append(scalar)
                    }
                }
                guard closed else { throw .invalidPartHeader }
            } else {
                parameterValue = token()
                guard !parameterValue.isEmpty else { throw .invalidPartHeader }
            }
            guard parameters[name] == nil else { throw .invalidPartHeader }
            parameters[name] = parameterValue
        }
        return (type, parameters)
    }

    /// The index of the first occurrence of `needle` in `haystack` at or after `from` (and, when
    /// given, starting within `within` bytes of it).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, within: Int? = nil) -> Int? {
        guard let first = needle.first, from >= 0 else { return nil }
        let lastStart = haystack.count - needle.count
        guard lastStart >= from else { return nil }
        let limit = within.map { min(lastStart, from + max(0, $0)) } ?? lastStart
        return haystack.withUnsafeBufferPointer { hay -> Int? in
            needle.withUnsafeBufferPointer { pattern -> Int? in
                var index = from
                while index <= limit {
                    if hay[index] == first {
                        var matched = true
                        for offset in 1..<pattern.count where hay[index + offset] != pattern[offset] {
                            matched = false
                            break
                        }
                        if matched { return index }
                    }
                    index += 1
                }
                return nil
            }
        }
    }
}

/// Why a `multipart/form-data` body was refused.
package enum MultipartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Content-Type is not `multipart/form-data`.
    case notMultipart
    /// The Content-Type has no `boundary` parameter.
    case missingBoundary
    /// The boundary is empty, longer than 70 characters or holds control characters.
    case invalidBoundary
    /// The body never opens with the boundary delimiter.
    case missingFirstBoundary
    /// A delimiter is followed by neither `--` nor CRLF.
    case invalidDelimiterLine
    /// A part (or the body) ends without the next delimiter.
    case missingClosingBoundary
    /// A part header line is not `name: value`, or a parameter is malformed.
    case invalidPartHeader
    /// A part has no `Content-Disposition: form-data` header.
    case missingContentDisposition
    /// A part's `Content-Disposition` has no `name`.
    case missingFieldName
    /// More parts than the limit.
    case tooManyParts(limit: Int)
    /// A part's header lines exceed the limit.
    case partHeadersTooLarge(limit: Int)

    package var description: String {
        switch self {
        case .notMultipart: "the body is not multipart/form-data"
        case .missingBoundary: "the Content-Type has no boundary"
        case .invalidBoundary: "the boundary is not 1-70 printable characters"
        case .missingFirstBoundary: "the body does not start with the boundary"
        case .invalidDelimiterLine: "a boundary line is followed by neither -- nor CRLF"
        case .missingClosingBoundary: "the body ends before the closing boundary"
        case .invalidPartHeader: "a part header is malformed"
        case .missingContentDisposition: "a part has no Content-Disposition: form-data"
        case .missingFieldName: "a part has no field name"
        case .tooManyParts(let limit): "more than \(limit) parts"
        case .partHeadersTooLarge(let limit): "part headers over \(limit) bytes"
        }
    }
}
