// SPDX-License-Identifier: MIT

extension JournalRecord {
    /// Bytes of a request body the journal keeps; file uploads (up to the file limit) keep their first 64 KiB.
    static let maxJournaledBodyBytes = 64 * 1024

    /// `body` cut to `maxJournaledBodyBytes`, so a journal of uploads stays small.
    static func bounded(_ body: [UInt8]) -> [UInt8] {
        body.count > maxJournaledBodyBytes ? Array(body.prefix(maxJournaledBodyBytes)) : body
    }
}
