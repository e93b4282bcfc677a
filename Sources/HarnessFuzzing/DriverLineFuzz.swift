// SPDX-License-Identifier: MIT
import ConformanceKit

/// Fuzz entry for the driver-line decoder (`DriverLines.decode`, docs/driver-protocol.md).
///
/// Invariants: decoding does not trap; a line decodes the same way as its JSON value written back
/// compactly (what a line means depends on its JSON value, not on spacing, member order or number
/// spelling); whitespace around the line changes nothing; a refusal says why.
enum DriverLineFuzz {
    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        let text = String(decoding: input, as: UTF8.self)
        let decoded = DecodedDriverLine(text)
        if let failure = decoded.failure, failure.isEmpty {
            throw FuzzFailure(.driverLine, "a refusal says why", text)
        }
        let padded = DecodedDriverLine(" \t" + text + " ")
        guard padded.agrees(with: decoded) else {
            throw FuzzFailure(.driverLine, "surrounding whitespace changes nothing", "\(decoded) vs \(padded)")
        }
        guard let rewritten = DecodedDriverLine.rewritten(text) else {
            guard !decoded.isDecoded else {
                throw FuzzFailure(.driverLine, "only JSON decodes", text)
            }
            return
        }
        let again = DecodedDriverLine(rewritten)
        guard again.agrees(with: decoded) else {
            throw FuzzFailure(.driverLine, "a line decodes like its rewritten JSON", "\(text) -> \(rewritten): \(decoded) vs \(again)")
        }
    }
}
