// SPDX-License-Identifier: MIT

/// Why a benchmark could not run or measure (one line; `main` prints it and exits non-zero).
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    init(description: String) { self.description = description }
}
