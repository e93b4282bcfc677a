// SPDX-License-Identifier: MIT

extension JournalRecord {
    /// Bytes of a request body the journal keeps; file uploads (up to the file limit) keep their first 64 KiB.
    static let maxJournaledBodyBytes = 64 * 1024

    /// `request` with its body cut to `maxJournaledBodyBytes`, so a journal of uploads stays small.
    static func bounded(_ request: HTTPRequest) -> HTTPRequest {
        guard request.body.count > maxJournaledBodyBytes else { return request }
        var copy = request
        copy.body = Array(request.body.prefix(maxJournaledBodyBytes))
        return copy
    }
}
