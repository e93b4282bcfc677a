// SPDX-License-Identifier: MIT
internal import COpenSSL
internal import PubNubCrypto

/// The answers of the mock's file storage, shaped like the cloud storage's (S3) that the live
/// service hands out URLs of: 204 with `ETag` and `Location` for an upload, the bytes for a
/// download, and XML `<Error>` documents otherwise.
///
/// The success answers are recorded (spec pubnub-modern §3.2); the error documents follow the
/// storage's documented error codes and are UNVERIFIED against recordings (none were captured).
enum StorageResponses {
    /// 204 No Content, no body; `ETag` is the quoted MD5 of the bytes, `Location` the object URL.
    static func uploaded(bytes: [UInt8], location: String) -> HTTPResponse {
        HTTPResponse(status: 204, headers: ["ETag": "\"" + ByteEncoding.hex(md5(bytes)) + "\"", "Location": location])
    }

    /// 200 with the stored bytes and the Content-Type the upload declared.
    static func download(_ file: StoredFile) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": file.contentType, "ETag": "\"" + ByteEncoding.hex(md5(file.bytes)) + "\""],
                     body: file.bytes)
    }

    /// An XML error document: `<Error><Code>…</Code><Message>…</Message>[extra]<RequestId>…</RequestId></Error>`.
    static func error(_ status: Int, code: String, message: String, extra: [(String, String)] = [], requestID: String) -> HTTPResponse {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + escape(code) + "</Code><Message>" + escape(message)
            + "</Message>"
        for (name, value) in extra { xml += "<" + name + ">" + escape(value) + "</" + name + ">" }
        xml += "<RequestId>" + escape(requestID) + "</RequestId></Error>"
        return HTTPResponse(status: status, headers: ["Content-Type": "application/xml"], body: Array(xml.utf8))
    }

    /// The body is not readable `multipart/form-data`.
    static func malformedPost(requestID: String) -> HTTPResponse {
        error(400, code: "MalformedPOSTRequest",
              message: "The body of your POST request is not well-formed multipart/form-data.", requestID: requestID)
    }

    /// No `file` part before the closing boundary.
    static func missingFile(requestID: String) -> HTTPResponse {
        error(400, code: "InvalidArgument", message: "POST requires exactly one file upload per request.",
              extra: [("ArgumentName", "file"), ("ArgumentValue", "0")], requestID: requestID)
    }

    /// A form field the upload URL requires is missing before the file (fields after it are ignored).
    static func missingField(_ name: String, requestID: String) -> HTTPResponse {
        error(400, code: "InvalidArgument",
              message: "Bucket POST must contain a field named '\(name)'.  If it is specified, please check the order of the fields.",
              extra: [("ArgumentName", name), ("ArgumentValue", "")], requestID: requestID)
    }

    /// A field differs from the value the upload URL was issued with, or the key is unknown.
    static func policyConditionFailed(_ name: String, expected: String, requestID: String) -> HTTPResponse {
        error(403, code: "AccessDenied",
              message: "Invalid according to Policy: Policy Condition failed: [\"eq\", \"$\(name.lowercased())\", \"\(expected)\"]",
              requestID: requestID)
    }

    /// The upload URL's policy has expired.
    static func policyExpired(requestID: String) -> HTTPResponse {
        error(403, code: "AccessDenied", message: "Invalid according to Policy: Policy expired.", requestID: requestID)
    }

    /// The file is larger than allowed (`maxAllowed` is the file limit, or what the keyspace cap leaves).
    static func tooLarge(proposed: Int, maxAllowed: Int, requestID: String) -> HTTPResponse {
        error(400, code: "EntityTooLarge", message: "Your proposed upload exceeds the maximum allowed size",
              extra: [("ProposedSize", String(proposed)), ("MaxSizeAllowed", String(max(0, maxAllowed)))], requestID: requestID)
    }

    /// No object with that key.
    static func noSuchKey(_ key: String, requestID: String) -> HTTPResponse {
        error(404, code: "NoSuchKey", message: "The specified key does not exist.", extra: [("Key", key)], requestID: requestID)
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func md5(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBufferPointer { input in
            _ = EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_md5(), nil)
        }
        return Array(digest.prefix(Int(length)))
    }
}
