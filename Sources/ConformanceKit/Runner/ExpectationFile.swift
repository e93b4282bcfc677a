// SPDX-License-Identifier: MIT
import Foundation

/// A client's known deviations: `Fixtures/expectations/<client>.json`.
///
/// Lets a team adopt the harness before its client passes everything: listed cases that end as
/// listed do not fail the run; a listed case that passes is reported as fixed; anything else that
/// fails is a new failure.
public struct ExpectationFile: Sendable, Hashable, Codable {
    /// One case expected not to pass (fail, non-strict or skipped), with the reason.
    public struct Deviation: Sendable, Hashable, Codable {
        /// The case id.
        public var `case`: String
        /// `fail`, `non-strict` or `skipped` (skipped cases are not run).
        public var outcome: CaseOutcome
        public var reason: String

        public init(case id: String, outcome: CaseOutcome, reason: String) {
            self.case = id
            self.outcome = outcome
            self.reason = reason
        }
    }

    public var client: String
    public var deviations: [Deviation]

    public init(client: String, deviations: [Deviation]) {
        self.client = client
        self.deviations = deviations
    }

    /// Reads and checks a file; a `pass` outcome or a repeated case id is a typed error.
    public static func load(contentsOf url: URL) throws -> ExpectationFile {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ExpectationFileError.unreadable(path: url.path, detail: "\(error.localizedDescription)")
        }
        return try decode(data, source: url.path)
    }

    public static func decode(_ data: Data, source: String) throws -> ExpectationFile {
        let file: ExpectationFile
        do { file = try JSONDecoder().decode(ExpectationFile.self, from: data) } catch {
            throw ExpectationFileError.invalid(path: source, detail: "\(error)")
        }
        var seen = Set<String>()
        for deviation in file.deviations {
            if deviation.outcome == .pass {
                throw ExpectationFileError.invalid(path: source, detail: "\(deviation.case): outcome \"pass\" is not a deviation")
            }
            if !seen.insert(deviation.case).inserted {
                throw ExpectationFileError.invalid(path: source, detail: "\(deviation.case) is listed twice")
            }
        }
        return file
    }

    /// The listed deviation for a case.
    public func deviation(for id: String) -> Deviation? {
        deviations.first { $0.case == id }
    }

    /// Ids listed that are not in `catalog` (stale entries worth reporting).
    public func unknownCases(in catalog: [ConformanceCase]) -> [String] {
        let ids = Set(catalog.map(\.id))
        return deviations.map(\.case).filter { !ids.contains($0) }
    }

    /// Marks `result` against this file.
    func classify(_ result: CaseResult) -> DeviationStatus? {
        guard let listed = deviation(for: result.id) else {
            return result.outcome == .fail ? .newFailure : nil
        }
        if result.outcome == listed.outcome { return .expected }
        if result.outcome == .pass { return .fixed }
        if result.outcome == .fail { return .newFailure }
        return nil
    }
}

/// Why an expectation file could not be used.
public enum ExpectationFileError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(path: String, detail: String)
    case invalid(path: String, detail: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let detail): "cannot read expectation file \(path): \(detail)"
        case .invalid(let path, let detail): "invalid expectation file \(path): \(detail)"
        }
    }
}
