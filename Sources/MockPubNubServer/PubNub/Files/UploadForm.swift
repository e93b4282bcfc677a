// SPDX-License-Identifier: MIT
import HarnessPrimitives
internal import PubNubCrypto

/// The form fields of an upload URL, in the live layout (spec pubnub-modern §3.2): `tagging`, `key`,
/// `Content-Type`, `X-Amz-Credential`, `X-Amz-Security-Token`, `X-Amz-Algorithm`, `X-Amz-Date`,
/// `Policy`, `X-Amz-Signature`. The policy is a base64 JSON document of the conditions and the
/// signature its HMAC-SHA256 under the mock storage's own key; the storage checks every field
/// against the values issued here.
enum UploadForm {
    /// The object tagging the service sets (recorded): files expire after a day.
    static let tagging = "<Tagging><TagSet><Tag><Key>ObjectTTLInDays</Key><Value>1</Value></Tag></TagSet></Tagging>"
    /// The key the mock storage signs its policies with (a fixed test value; nothing secret).
    static let signingKey = Array("pubnub-harness-file-storage".utf8)

    /// The storage object key of a file.
    static func objectKey(subscribeKey: String, channel: String, id: String, name: String) -> String {
        subscribeKey + "/" + channel + "/" + id + "/" + name
    }

    /// The fields for an upload of `name` as `key`, issued at `now` and valid until `expiresAt`.
    static func fields(key: String, name: String, now: Int64, expiresAt: Int64, maxFileBytes: Int) -> [FormField] {
        let contentType = contentType(forFileName: name)
        let credential = "MOCKSTORAGEACCESSKEY/" + ISOTime.day(now) + "/us-east-1/s3/aws4_request"
        let date = ISOTime.compact(now)
        let conditions = [
            "{\"bucket\":\"file-storage\"}",
            "[\"eq\",\"$tagging\"," + FileBodies.quote(tagging) + "]",
            "[\"eq\",\"$key\"," + FileBodies.quote(key) + "]",
            "[\"eq\",\"$Content-Type\"," + FileBodies.quote(contentType) + "]",
            "[\"content-length-range\",0," + String(maxFileBytes) + "]",
            "{\"x-amz-credential\":" + FileBodies.quote(credential) + "}",
            "{\"x-amz-security-token\":\"\"}",
            "{\"x-amz-algorithm\":\"AWS4-HMAC-SHA256\"}",
            "{\"x-amz-date\":\"" + date + "\"}",
        ]
        let policyJSON = "{\"expiration\":\"" + ISOTime.string(expiresAt) + "\",\"conditions\":[" + conditions.joined(separator: ",") + "]}"
        let policy = ByteEncoding.base64(Array(policyJSON.utf8))
        let signature = ByteEncoding.hex(HMAC.sha256(key: signingKey, data: Array(policy.utf8)))
        return [
            FormField(key: "tagging", value: tagging),
            FormField(key: "key", value: key),
            FormField(key: "Content-Type", value: contentType),
            FormField(key: "X-Amz-Credential", value: credential),
            FormField(key: "X-Amz-Security-Token", value: ""),
            FormField(key: "X-Amz-Algorithm", value: "AWS4-HMAC-SHA256"),
            FormField(key: "X-Amz-Date", value: date),
            FormField(key: "Policy", value: policy),
            FormField(key: "X-Amz-Signature", value: signature),
        ]
    }

    /// The service's guess of a file's type from its name (recorded: `king_arthur.txt` →
    /// `text/plain; charset=utf-8`; the other extensions are UNVERIFIED, common MIME types).
    static func contentType(forFileName name: String) -> String {
        let ext = name.split(separator: ".", omittingEmptySubsequences: false).count > 1
            ? String(name.split(separator: ".", omittingEmptySubsequences: false).last ?? "").lowercased() : ""
        switch ext {
        case "txt", "text", "log", "md": return "text/plain; charset=utf-8"
        case "json": return "application/json"
        case "html", "htm": return "text/html; charset=utf-8"
        case "csv": return "text/csv; charset=utf-8"
        case "xml": return "text/xml; charset=utf-8"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "svg": return "image/svg+xml"
        case "pdf": return "application/pdf"
        case "zip": return "application/zip"
        case "mp4": return "video/mp4"
        case "mp3": return "audio/mpeg"
        default: return "application/octet-stream"
        }
    }

    /// A random UUID v4 in lowercase text (the form of the recorded file ids).
    static func newFileID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = ByteEncoding.hex(bytes)
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-" + String(h[20..<32])
    }
}
