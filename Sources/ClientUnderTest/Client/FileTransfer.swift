// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessJSON
import PubNubCrypto

/// Results of the file operations.
public struct PNFileUploadResult: Sendable, Equatable {
    public let id: String
    public let name: String
    /// The publish-file message's timetoken.
    public let timetoken: UInt64
}

/// One file of a channel's list.
public struct PNFileInfo: Sendable, Equatable {
    public let id: String
    public let name: String
    public let size: Int
    /// ISO-8601 upload time.
    public let created: String
}

public struct PNListFilesResult: Sendable, Equatable {
    public let files: [PNFileInfo]
    /// The page token for the next call, when the page was full.
    public let next: String?
    public let count: Int
}

public struct PNFileDownloadResult: Sendable, Equatable {
    public let name: String
    /// The file's bytes, decrypted when a cipher is set.
    public let data: [UInt8]
    /// The storage's `Content-Type`.
    public let contentType: String?
}

/// The upload form generate-upload-url answers with.
struct FileUploadForm: Sendable {
    var id: String
    var name: String
    var url: String
    var fields: [(key: String, value: String)]
}

/// Absolute URLs the file service hands out (upload URL, download Location): the transport for
/// their host and the origin-form target.
typealias FileURL = HTTPURL

/// `multipart/form-data` as the storage expects it: the form fields in order, then `file`.
enum MultipartBody {
    static func encode(fields: [(key: String, value: String)], fileName: String, data: [UInt8], boundary: String) -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escape(field.key))\"\r\n\r\n\(field.value)\r\n".utf8)
        }
        out += Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(escape(fileName))\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        out += data
        out += Array("\r\n--\(boundary)--\r\n".utf8)
        return out
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { out += "\\" }
            if scalar == "\r" || scalar == "\n" { continue }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// A boundary that does not occur in `data` (random, retried on the rare collision).
    static func boundary(avoiding data: [UInt8]) -> String {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let candidate = "pnfile" + ByteEncoding.hex((0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let needle = Array(candidate.utf8)
            if !contains(data, needle) { return candidate }
        }
        return "pnfile-" + ByteEncoding.hex((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private static func contains(_ data: [UInt8], _ needle: [UInt8]) -> Bool {
        guard data.count >= needle.count else { return false }
        for start in 0...(data.count - needle.count) where data[start] == needle[0] {
            if data[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}

/// File encryption with the client's cipher: the CryptoModule as configured, and for the legacy
/// cipher the random-IV format the SDKs always use for files (crypto spec §4).
enum FileCrypto {
    static func module(_ cipher: (any PubNubMessageCipher)?) throws(PNStatus) -> CryptoModule? {
        guard let cipher else { return nil }
        guard let crypto = cipher as? PubNubCryptoCipher else {
            throw PNStatus(category: .badRequest, operation: .sendFile,
                           errorData: PNErrorData(information: "file encryption needs a PubNubCryptoCipher"))
        }
        var module = crypto.module
        if module.scheme == .legacy { module.scheme = .legacyRandomIV }
        return module
    }
}
