// SPDX-License-Identifier: MIT

/// Why a fault plan was refused: the path of the offending field and what was wrong with it.
///
/// `description` reads `rules[2].fault.status: expected an integer 100...599`.
public struct FaultPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field path, e.g. `rules[2].fault.status`; `$` for the document itself.
    public var path: String
    /// What was wrong, e.g. `expected an integer 100...599` or `unknown field`.
    public var message: String

    public init(path: String, message: String) {
        self.path = path.isEmpty ? "$" : path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// Builds field paths for error messages.
enum PlanFieldPath {
    static func member(_ base: String, _ name: String) -> String {
        base.isEmpty ? name : base + "." + name
    }

    static func element(_ base: String, _ index: Int) -> String {
        (base.isEmpty ? "$" : base) + "[\(index)]"
    }
}

/// The expectations named in errors, shared by decoding and `validate()` so both say the same.
enum PlanExpected {
    static let status = "expected an integer 100...599"
    static let positive = "expected an integer >= 1"
    static let nonNegative = "expected an integer >= 0"
    static let probability = "expected a number 0...1"
    static let seed = "expected an integer 0...18446744073709551615"
    static let region = "expected an integer 0...2147483647"
    static let messageCount = "expected an integer 1...100000"
    static let milliseconds = "expected an integer 0...3600000 (milliseconds)"
}
