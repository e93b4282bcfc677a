// SPDX-License-Identifier: MIT
import HarnessJSON

/// The JSON bodies of the file-sharing service (spec pubnub-modern §3.2), compact and in the
/// recorded key order; strings escaped as the service's Go encoder does (`<`, `>`, `&` as `\u00XX`).
enum FileBodies {
    /// generate-upload-url: `{"status":200,"data":{"id","name"},"file_upload_request":{"url","method","expiration_date","form_fields"}}`.
    static func uploadRequest(id: String, name: String, url: String, expiration: Int64, fields: [FormField]) -> String {
        let form = fields.map { "{\"key\":" + quote($0.key) + ",\"value\":" + quote($0.value) + "}" }
        return "{\"status\":200,\"data\":{\"id\":" + quote(id) + ",\"name\":" + quote(name) + "},\"file_upload_request\":{\"url\":"
            + quote(url) + ",\"method\":\"POST\",\"expiration_date\":" + quote(ISOTime.string(expiration))
            + ",\"form_fields\":[" + form.joined(separator: ",") + "]}}"
    }

    /// list: `{"status":200,"data":[{"name","id","size","created"}…],"next":<token or null>,"count":N}`.
    static func list(_ files: [StoredFile], next: String?) -> String {
        let items = files.map { file in
            "{\"name\":" + quote(file.name) + ",\"id\":" + quote(file.id) + ",\"size\":" + String(file.bytes.count)
                + ",\"created\":" + quote(ISOTime.string(file.created)) + "}"
        }
        return "{\"status\":200,\"data\":[" + items.joined(separator: ",") + "],\"next\":" + (next.map(quote) ?? "null")
            + ",\"count\":" + String(files.count) + "}"
    }

    /// delete (recorded 2020-2024).
    static let deleted = "{\"status\":200}"

    /// The Files service error shape (SDK test fixtures; UNVERIFIED live): `{"status":N,"error":{"message","source":"Files","code"}}`.
    static func error(_ status: Int, _ message: String, code: Int) -> HTTPResponse {
        .pubNub(status, "{\"status\":" + String(status) + ",\"error\":{\"message\":" + quote(message)
            + ",\"source\":\"Files\",\"code\":" + String(code) + "}}", .json)
    }

    /// A JSON string literal with `<`, `>` and `&` escaped as Go's encoder writes them.
    static func quote(_ text: String) -> String {
        let literal = JSONText.stringLiteral(text)
        guard literal.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 }) else { return literal }
        var out = ""
        for scalar in literal.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// ISO-8601 UTC times with second precision (`2025-05-05T17:29:24Z`) and the compact AWS forms.
enum ISOTime {
    /// `yyyy-MM-ddTHH:mm:ssZ` for a Unix second.
    static func string(_ seconds: Int64) -> String {
        let (y, m, d, hh, mm, ss) = civil(seconds)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(hh, 2)):\(pad(mm, 2)):\(pad(ss, 2))Z"
    }

    /// `yyyyMMddTHHmmssZ` (the `X-Amz-Date` form).
    static func compact(_ seconds: Int64) -> String {
        let (y, m, d, hh, mm, ss) = civil(seconds)
        return "\(pad(y, 4))\(pad(m, 2))\(pad(d, 2))T\(pad(hh, 2))\(pad(mm, 2))\(pad(ss, 2))Z"
    }

    /// `yyyyMMdd` (the credential scope date).
    static func day(_ seconds: Int64) -> String {
        let (y, m, d, _, _, _) = civil(seconds)
        return "\(pad(y, 4))\(pad(m, 2))\(pad(d, 2))"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Year, month, day, hour, minute, second of a Unix second (proleptic Gregorian, days-from-civil inverse).
    static func civil(_ seconds: Int64) -> (Int64, Int64, Int64, Int64, Int64, Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, second / 3600, second % 3600 / 60, second % 60)
    }
}
