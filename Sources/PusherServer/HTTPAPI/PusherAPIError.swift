// SPDX-License-Identifier: MIT

/// Why the HTTP API refused a request; each case has the status and plain-text body the service
/// answers with (spec §6.3). Cases whose text or status no source shows are marked UNVERIFIED.
public enum PusherAPIError: Error, Sendable, Hashable {
    /// No endpoint at this method and path: 404 `404 NOT FOUND\n` [obs].
    case notFound
    /// The path's app id is not served: 404 `404 NOT FOUND\n` (UNVERIFIED: old pusher-http-ruby read a
    /// 404 as "app_id is probably invalid").
    case unknownApp(id: String)
    /// `auth_key` missing or not the app's key: 400 `Unknown auth_key` [obs].
    case unknownAuthKey
    /// `auth_timestamp` more than 600 s away from the server's clock: 401 with the live text [obs].
    case timestampExpired(given: Int64, server: Int64)
    /// `auth_timestamp` missing or not an integer: 401 (UNVERIFIED text).
    case invalidTimestamp
    /// `auth_version` other than `1.0`: 400 (UNVERIFIED text and status).
    case unsupportedAuthVersion(String?)
    /// A body without `body_md5`, or a `body_md5` that is not the body's MD5: 401 (UNVERIFIED text and status).
    case bodyMD5Mismatch
    /// Wrong or missing `auth_signature`: 401 with the string the server signed [obs].
    case invalidSignature(expected: String, sent: String)
    /// Query parameters the endpoint does not take: 400 [obs].
    case extraneousParameters([String])
    /// A malformed request body or parameter: 400 with this text (the events `name` text is [obs],
    /// the others UNVERIFIED).
    case badRequest(String)
    /// `data` over 10 KB: 413 (status [doc], text UNVERIFIED).
    case payloadTooLarge(Int)

    /// The HTTP status.
    public var status: Int {
        switch self {
        case .notFound, .unknownApp: 404
        case .unknownAuthKey, .unsupportedAuthVersion, .extraneousParameters, .badRequest: 400
        case .timestampExpired, .invalidTimestamp, .bodyMD5Mismatch, .invalidSignature: 401
        case .payloadTooLarge: 413
        }
    }

    /// The plain-text body.
    public var text: String {
        switch self {
        case .notFound, .unknownApp:
            return "404 NOT FOUND\n"
        case .unknownAuthKey:
            return "Unknown auth_key"
        case .timestampExpired(let given, let server):
            return "Timestamp expired: Given timestamp (\(PusherUTCTime.iso8601(given))) not within 600s of server time (\(PusherUTCTime.iso8601(server)))"
        case .invalidTimestamp:
            return "Invalid auth_timestamp: expected Unix seconds"  // UNVERIFIED
        case .unsupportedAuthVersion(let version):
            return "Unsupported auth_version: expected 1.0, got '\(version ?? "")'"  // UNVERIFIED
        case .bodyMD5Mismatch:
            return "Invalid body_md5: expected the hex MD5 of the request body"  // UNVERIFIED
        case .invalidSignature(let expected, let sent):
            // The live text shows the signed string with its newlines written as `\n`.
            let shown = expected.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
            return "Invalid signature: you should have sent HmacSHA256Hex(\"\(shown)\", your_secret_key), but you sent \"\(sent)\""
        case .extraneousParameters(let names):
            return "The following query string parameters are extraneous: \(names.joined(separator: ", "))"
        case .badRequest(let text):
            return text
        case .payloadTooLarge(let bytes):
            return "Request too large: data content of \(bytes) bytes exceeds the limit of 10240 bytes\n"  // UNVERIFIED
        }
    }
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ`, the form of the live timestamp error.
enum PusherUTCTime {
    static func iso8601(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil_from_days).
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
