// SPDX-License-Identifier: MIT
import MockPubNubServer

/// Fuzz entry for `MultipartFormData` (the file storage's upload parser).
///
/// Input: the first line (up to LF) is the Content-Type value, the rest the body. Invariants: no
/// trap; every refusal is a `MultipartError`; the same input parses the same way twice; parsed
/// parts never exceed the limits; parts written back with `encode` under the same boundary parse
/// to the same parts.
enum MultipartFuzz {
    static let limits = MultipartFormData.Limits(maxParts: 16, maxPartHeaderBytes: 256)

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let newline = input.firstIndex(of: 0x0A) ?? input.count
        let contentType = String(decoding: input[..<newline], as: UTF8.self)
        let body = newline < input.count ? Array(input[(newline + 1)...]) : []
        let boundary: String
        do throws(MultipartError) {
            boundary = try MultipartFormData.boundary(ofContentType: contentType)
        } catch {
            return
        }
        let first = parse(body, boundary)
        guard first == parse(body, boundary) else {
            throw FuzzFailure(.multipart, "parsing is deterministic", "\(first)")
        }
        guard case .success(let form) = first else { return }
        guard form.parts.count <= limits.maxParts else {
            throw FuzzFailure(.multipart, "the part limit holds", "\(form.parts.count) parts")
        }
        let encoded = MultipartFormData.encode(form.parts, boundary: boundary)
        let again = parse(encoded, boundary)
        guard again == .success(form) else {
            throw FuzzFailure(.multipart, "encoded parts parse back to themselves", "\(form.parts) -> \(again)")
        }
    }

    static func parse(_ body: [UInt8], _ boundary: String) -> Result<MultipartFormData, MultipartError> {
        do throws(MultipartError) {
            return .success(try MultipartFormData.parse(body, boundary: boundary, limits: limits))
        } catch {
            return .failure(error)
        }
    }
}
