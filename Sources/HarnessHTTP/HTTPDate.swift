// SPDX-License-Identifier: MIT

/// The IMF-fixdate form of a time (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`: what a
/// `Date` field carries. Pure: computed from Unix seconds with the civil-from-days algorithm.
package enum HTTPDate {
    /// The length of every IMF-fixdate (29 bytes).
    package static let length = 29

    /// The IMF-fixdate of `unixSeconds` (seconds since 1970-01-01T00:00:00Z, not negative).
    package static func format(unixSeconds: Int) -> String {
        String(decoding: bytes(unixSeconds: unixSeconds), as: UTF8.self)
    }

    /// The `Date: …\r\n` header line of `unixSeconds` (37 bytes).
    package static func headerLine(unixSeconds: Int) -> [UInt8] {
        Array("Date: ".utf8) + bytes(unixSeconds: unixSeconds) + [0x0D, 0x0A]
    }

    /// The IMF-fixdate of `unixSeconds` as bytes.
    package static func bytes(unixSeconds: Int) -> [UInt8] {
        let seconds = max(0, unixSeconds)
        let days = seconds / 86_400
        let secondOfDay = seconds % 86_400
        let weekday = (days + 4) % 7  // 1970-01-01 was a Thursday
        // Civil date from days since the epoch (proleptic Gregorian).
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var out: [UInt8] = []
        out.reserveCapacity(length)
        out.append(contentsOf: weekdays[weekday].utf8)
        out.append(contentsOf: ", ".utf8)
        appendTwoDigits(day, to: &out)
        out.append(0x20)
        out.append(contentsOf: months[month - 1].utf8)
        out.append(0x20)
        appendTwoDigits(year / 100 % 100, to: &out)
        appendTwoDigits(year % 100, to: &out)
        out.append(0x20)
        appendTwoDigits(secondOfDay / 3_600, to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwoDigits(secondOfDay / 60 % 60, to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwoDigits(secondOfDay % 60, to: &out)
        out.append(contentsOf: " GMT".utf8)
        return out
    }

    private static func appendTwoDigits(_ value: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
