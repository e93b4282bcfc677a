// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON

/// A file-sharing operation (spec pubnub-modern §3; data shapes in docs/driver-protocol.md).
public enum FileOperation: Sendable, Hashable {
    /// Upload a file and publish its message. The file is `content` as UTF-8, repeated (and cut)
    /// to `sizeBytes` bytes when that is given.
    case sendFile(channel: String, name: String, content: String, sizeBytes: Int? = nil, message: JSONValue? = nil,
                  customMessageType: String? = nil)
    /// Publish the message of a file already uploaded.
    case publishFileMessage(channel: String, fileID: String, fileName: String, message: JSONValue? = nil,
                            customMessageType: String? = nil)
    case listFiles(channel: String, limit: Int? = nil, next: String? = nil)
    /// The download URL, as the client builds it.
    case getFileURL(channel: String, fileID: String, fileName: String)
    case downloadFile(channel: String, fileID: String, fileName: String)
    case deleteFile(channel: String, fileID: String, fileName: String)

    /// The placeholder for the last file id a result carried.
    public static let fileIDPlaceholder = "{fileID}"
    /// The placeholder for the last list page token a result carried.
    public static let nextPagePlaceholder = "{nextPage}"

    /// The operation's name on the driver protocol.
    public var name: String {
        switch self {
        case .sendFile: "sendFile"
        case .publishFileMessage: "publishFileMessage"
        case .listFiles: "listFiles"
        case .getFileURL: "getFileURL"
        case .downloadFile: "downloadFile"
        case .deleteFile: "deleteFile"
        }
    }

    /// The driver-protocol fields (besides `type`).
    public var driverFields: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        func put(_ key: String, _ value: String?) { if let value { fields[key] = .string(value) } }
        switch self {
        case .sendFile(let channel, let name, let content, let sizeBytes, let message, let customMessageType):
            fields["channel"] = .string(channel)
            fields["name"] = .string(name)
            fields["content"] = .string(content)
            if let sizeBytes { fields["sizeBytes"] = .int(sizeBytes) }
            if let message { fields["message"] = message }
            put("customMessageType", customMessageType)
        case .publishFileMessage(let channel, let fileID, let fileName, let message, let customMessageType):
            fields["channel"] = .string(channel)
            fields["fileID"] = .string(fileID)
            fields["fileName"] = .string(fileName)
            if let message { fields["message"] = message }
            put("customMessageType", customMessageType)
        case .listFiles(let channel, let limit, let next):
            fields["channel"] = .string(channel)
            if let limit { fields["limit"] = .int(limit) }
            put("next", next)
        case .getFileURL(let channel, let fileID, let fileName), .downloadFile(let channel, let fileID, let fileName),
            .deleteFile(let channel, let fileID, let fileName):
            fields["channel"] = .string(channel)
            fields["fileID"] = .string(fileID)
            fields["fileName"] = .string(fileName)
        }
        return fields
    }

    /// The file's bytes for `sendFile`: `content` as UTF-8, repeated and cut to `sizeBytes`.
    public static func fileBytes(content: String, sizeBytes: Int?) -> [UInt8] {
        let unit = Array(content.utf8)
        guard let sizeBytes, !unit.isEmpty else { return unit }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sizeBytes)
        while bytes.count < sizeBytes { bytes.append(contentsOf: unit.prefix(sizeBytes - bytes.count)) }
        return bytes
    }

    /// The operation with `{fileID}` and `{nextPage}` replaced.
    public func resolving(fileID: String?, nextPage: String?) -> FileOperation {
        func resolve(_ text: String) -> String {
            var out = text
            if let fileID { out = out.replacingOccurrences(of: Self.fileIDPlaceholder, with: fileID) }
            if let nextPage { out = out.replacingOccurrences(of: Self.nextPagePlaceholder, with: nextPage) }
            return out
        }
        switch self {
        case .sendFile: return self
        case .publishFileMessage(let channel, let fileID, let fileName, let message, let customMessageType):
            return .publishFileMessage(channel: channel, fileID: resolve(fileID), fileName: fileName, message: message,
                                       customMessageType: customMessageType)
        case .listFiles(let channel, let limit, let next):
            return .listFiles(channel: channel, limit: limit, next: next.map(resolve))
        case .getFileURL(let channel, let fileID, let fileName):
            return .getFileURL(channel: channel, fileID: resolve(fileID), fileName: fileName)
        case .downloadFile(let channel, let fileID, let fileName):
            return .downloadFile(channel: channel, fileID: resolve(fileID), fileName: fileName)
        case .deleteFile(let channel, let fileID, let fileName):
            return .deleteFile(channel: channel, fileID: resolve(fileID), fileName: fileName)
        }
    }
}
