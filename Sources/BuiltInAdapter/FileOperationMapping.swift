// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit
import HarnessJSON

/// Maps the file operations to `PubNubClient` (data shapes of docs/driver-protocol.md).
enum FileOperationMapping {
    static func perform(_ operation: FileOperation, on client: PubNubClient) async throws(PNStatus) -> OperationResult {
        switch operation {
        case .sendFile(let channel, let name, let content, let sizeBytes, let message, let customMessageType):
            let result = try await client.sendFile(channel: channel, name: name,
                                                   data: FileOperation.fileBytes(content: content, sizeBytes: sizeBytes),
                                                   message: message, customMessageType: customMessageType)
            return .acknowledgment(data: ["id": .string(result.id), "name": .string(result.name),
                                          "timetoken": .string(String(result.timetoken))])
        case .publishFileMessage(let channel, let fileID, let fileName, let message, let customMessageType):
            let result = try await client.publishFileMessage(channel: channel, fileID: fileID, fileName: fileName, message: message,
                                                             customMessageType: customMessageType)
            return .acknowledgment(data: ["timetoken": .string(String(result.timetoken))])
        case .listFiles(let channel, let limit, let next):
            let result = try await client.listFiles(channel: channel, limit: limit, next: next)
            let files = result.files.map { file -> JSONValue in
                ["id": .string(file.id), "name": .string(file.name), "size": .int(file.size), "created": .string(file.created)]
            }
            return OperationMapping.success(["files": .array(files), "next": result.next.map { .string($0) } ?? .null,
                                             "count": .int(result.count)])
        case .getFileURL(let channel, let fileID, let fileName):
            return OperationMapping.success(["url": .string(client.fileURL(channel: channel, fileID: fileID, fileName: fileName))])
        case .downloadFile(let channel, let fileID, let fileName):
            let result = try await client.downloadFile(channel: channel, fileID: fileID, fileName: fileName)
            return OperationMapping.success(["name": .string(result.name), "size": .int(result.data.count),
                                             "content": .string(String(decoding: result.data, as: UTF8.self))])
        case .deleteFile(let channel, let fileID, let fileName):
            return OperationMapping.result(of: try await client.deleteFile(channel: channel, fileID: fileID, fileName: fileName))
        }
    }
}
