// SPDX-License-Identifier: MIT
import MockPubNubServer

/// Fuzz entry for `HTTPRequestParser`.
///
/// Invariants: the same bytes fed whole, split at an input-derived point, and (for short inputs)
/// one byte at a time yield the same requests and the same error; after an error the parser keeps
/// throwing it; every error maps to a 4xx/5xx status; every parsed request, written back with a
/// `Content-Length` body, parses to the same method, target, version, headers and body.
enum HTTPParserFuzz {
    /// Small limits, so the 413/414/431 paths are reachable from short inputs.
    static let limits = HTTPRequestParser.Limits(maxHeaderBytes: 512, maxTargetBytes: 256, maxBodyBytes: 2048)

    struct Outcome: Equatable {
        var requests: [HTTPRequestParser.Parsed] = []
        var error: HTTPParseError?
        var bufferedBytes = 0
    }

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let whole = try feed([input[...]])
        let split = input.isEmpty ? 0 : Int(fnv1a(input) % UInt64(input.count + 1))
        let halves = try feed([input[..<split], input[split...]])
        guard whole == halves else {
            throw FuzzFailure(.httpParser, "whole and split at \(split) differ", "\(whole) vs \(halves)")
        }
        if input.count <= 384 {
            let bytewise = try feed(input.indices.map { input[$0...$0] })
            guard whole == bytewise else {
                throw FuzzFailure(.httpParser, "whole and byte-by-byte differ", "\(whole) vs \(bytewise)")
            }
        }
        if let error = whole.error, !(400...599).contains(error.status) {
            throw FuzzFailure(.httpParser, "an error answers 4xx/5xx", "\(error) -> \(error.status)")
        }
        for parsed in whole.requests {
            try reframe(parsed.request)
        }
    }

    /// Feeds `pieces` in order, taking every complete request after each one.
    static func feed(_ pieces: [ArraySlice<UInt8>]) throws(FuzzFailure) -> Outcome {
        var parser = HTTPRequestParser(limits: limits)
        var outcome = Outcome()
        pieces: for piece in pieces {
            parser.append(Array(piece))
            // Each request consumes at least one byte, so this is bounded by the input length.
            for _ in 0...(piece.count + 1) {
                do {
                    guard let parsed = try parser.next() else { continue pieces }
                    outcome.requests.append(parsed)
                } catch {
                    outcome.error = error
                    do {
                        _ = try parser.next()
                        throw FuzzFailure(.httpParser, "a failed parser stays failed", "next() returned after \(error)")
                    } catch let again as HTTPParseError {
                        guard again == error else {
                            throw FuzzFailure(.httpParser, "a failed parser repeats its error", "\(error) then \(again)")
                        }
                    } catch let failure as FuzzFailure {
                        throw failure
                    } catch {}
                    return outcome
                }
            }
            throw FuzzFailure(.httpParser, "next() ends", "more requests than bytes in a piece of \(piece.count)")
        }
        outcome.bufferedBytes = parser.bufferedByteCount
        return outcome
    }

    /// Writes `request` back as HTTP/1.x with a `Content-Length` body and parses it again.
    static func reframe(_ request: HTTPRequest) throws(FuzzFailure) {
        var text = "\(request.method) \(request.target) \(request.version)\r\n"
        for field in framingless(request.headers) { text += field + "\r\n" }
        text += "Content-Length: \(request.body.count)\r\n\r\n"
        var parser = HTTPRequestParser()
        parser.append(Array(text.utf8) + request.body)
        let again: HTTPRequestParser.Parsed?
        do {
            again = try parser.next()
        } catch {
            throw FuzzFailure(.httpParser, "a parsed request re-frames", "\(error) for \(text.debugDescription)")
        }
        guard let again,
            again.request.method == request.method, again.request.target == request.target,
            again.request.version == request.version, again.request.body == request.body,
            framingless(again.request.headers) == framingless(request.headers)
        else {
            throw FuzzFailure(.httpParser, "a re-framed request parses the same", "\(String(describing: again)) vs \(request)")
        }
        // The routing views must not trap on anything the parser lets through.
        _ = request.pathSegments
        _ = request.queryItems
    }

    /// The header fields other than the body framing ones, in order.
    static func framingless(_ headers: HTTPHeaders) -> [String] {
        headers.filter { field in
            let name = field.name.lowercased()
            return name != "content-length" && name != "transfer-encoding"
        }.map { "\($0.name): \($0.value)" }
    }
}
