// SPDX-License-Identifier: MIT
import HarnessJSON

/// What the admin API shows of one stored file.
public struct FileSummary: Sendable, Hashable {
    public var subscribeKey: String
    public var channel: String
    public var id: String
    public var name: String
    public var size: Int
    public var contentType: String
    /// ISO-8601 upload time.
    public var created: String

    var json: JSONValue {
        .object([
            ("subscribeKey", .string(subscribeKey)), ("channel", .string(channel)), ("id", .string(id)), ("name", .string(name)),
            ("size", .int(size)), ("contentType", .string(contentType)), ("created", .string(created)),
        ])
    }
}

extension PubNubService {
    /// The stored files of `subscribeKey`, or of every key when `nil`.
    public func fileSummaries(subscribeKey: String?) -> [FileSummary] {
        let keys = subscribeKey.map { [$0] } ?? subscribeKeys()
        return keys.flatMap { key in
            withState(key) { state, _, _ in
                state.files.allFiles.map { file in
                    FileSummary(subscribeKey: key, channel: file.channel, id: file.id, name: file.name, size: file.bytes.count,
                                contentType: file.contentType, created: ISOTime.string(file.created))
                }
            }
        }
    }

    /// Drops the files and upload URLs of `subscribeKey` (every key when `nil`); returns how many files went.
    @discardableResult
    public func removeFiles(subscribeKey: String?) -> Int {
        let keys = subscribeKey.map { [$0] } ?? subscribeKeys()
        return keys.reduce(0) { total, key in
            total + withState(key) { state, _, _ in
                let count = state.files.allFiles.count
                state.files.removeAll()
                return count
            }
        }
    }
}
