// SPDX-License-Identifier: MIT

/// One fuzz entry point: a function over arbitrary bytes that runs one decoder of the harness and
/// checks its invariants (not only that it does not crash).
///
/// The same functions serve libFuzzer (`harness-fuzz` built with `-sanitize=fuzzer`), the corpus
/// replay of `harness-fuzz` in a normal build, and the seeded mutation tests of `swift test`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `HTTPRequestParser`: whole, split and byte-by-byte feeding agree; parsed requests re-frame.
    case httpParser = "http-parser"
    /// `FaultPlan` / `FaultPlanFile` decoding: decoded plans re-encode and decode to the same plans.
    case faultPlan = "fault-plan"
    /// The payload JSON scanner: agrees with the platform JSON parser; accepted values round-trip.
    case jsonScanner = "json-scanner"
    /// `DriverLines.decode`: a line decodes the same as its JSON value rewritten.
    case driverLine = "driver-line"
    /// The WebSocket frame decoder and message assembler: any split decodes alike; frames re-encode.
    case webSocketFrames = "websocket-frames"
    /// `MultipartFormData`: refusals are typed; parts re-encode and parse to the same parts.
    case multipart = "multipart"
    /// The subscribe `filter-expr` parser and evaluator: canonical text round-trips; evaluation is consistent.
    case filterExpression = "filter-expression"

    /// Runs the entry point on `input`; throws when an invariant does not hold.
    public func run(_ input: [UInt8]) throws(FuzzFailure) {
        switch self {
        case .httpParser: try HTTPParserFuzz.run(input)
        case .faultPlan: try FaultPlanFuzz.run(input)
        case .jsonScanner: try JSONScannerFuzz.run(input)
        case .driverLine: try DriverLineFuzz.run(input)
        case .webSocketFrames: try WebSocketFrameFuzz.run(input)
        case .multipart: try MultipartFuzz.run(input)
        case .filterExpression: try FilterExpressionFuzz.run(input)
        }
    }
}

/// An invariant of a fuzz target that did not hold for an input.
public struct FuzzFailure: Error, Sendable, CustomStringConvertible {
    /// The target whose invariant failed.
    public var target: FuzzTarget
    /// The invariant, in a few words.
    public var invariant: String
    /// What was seen instead.
    public var detail: String

    public init(_ target: FuzzTarget, _ invariant: String, _ detail: String) {
        self.target = target
        self.invariant = invariant
        self.detail = detail
    }

    public var description: String { "\(target.rawValue): \(invariant): \(detail.prefix(600))" }
}

/// A deterministic 64-bit FNV-1a hash: split points and choices derived from the input itself, so
/// a saved input reproduces exactly.
func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01b3
    }
    return hash
}
