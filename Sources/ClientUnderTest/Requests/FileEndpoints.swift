// SPDX-License-Identifier: MIT
import HarnessJSON

/// File-sharing requests (spec pubnub-modern §3.1) and their parsers.
enum FileEndpoints {
    static func channelPath(_ subscribeKey: String, _ channel: String) -> String {
        "/v1/files/\(PercentEncoding.encode(subscribeKey))/channels/\(PercentEncoding.encode(channel))"
    }

    static func generateUploadURL(subscribeKey: String, channel: String, name: String) -> PubNubRequest {
        PubNubRequest(operation: .generateFileUploadURL, method: "POST",
                      path: channelPath(subscribeKey, channel) + "/generate-upload-url",
                      body: JSONValue.object([("name", .string(name))]).jsonBytes, channels: [channel])
    }

    static func publishFile(publishKey: String, subscribeKey: String, channel: String, messageText: String, meta: JSONValue?,
                            store: Bool?, ttl: Int?, customMessageType: String?) -> PubNubRequest {
        var query: [(String, String)] = []
        if let store { query.append(("store", store ? "1" : "0")) }
        if let ttl, store != false, ttl > 0 { query.append(("ttl", String(ttl))) }
        if let meta { query.append(("meta", meta.jsonText)) }
        if let customMessageType { query.append(("custom_message_type", customMessageType)) }
        return PubNubRequest(
            operation: .publishFileMessage,
            path: "/v1/files/publish-file/\(PercentEncoding.encode(publishKey))/\(PercentEncoding.encode(subscribeKey))/0/"
                + "\(PercentEncoding.encode(channel))/0/\(PercentEncoding.encode(messageText))",
            query: query, channels: [channel])
    }

    static func listFiles(subscribeKey: String, channel: String, limit: Int?, next: String?) -> PubNubRequest {
        var query: [(String, String)] = []
        if let limit { query.append(("limit", String(limit))) }
        if let next { query.append(("next", next)) }
        return PubNubRequest(operation: .listFiles, path: channelPath(subscribeKey, channel) + "/files", query: query, channels: [channel])
    }

    static func filePath(subscribeKey: String, channel: String, id: String, name: String) -> String {
        channelPath(subscribeKey, channel) + "/files/\(PercentEncoding.encode(id))/\(PercentEncoding.encode(name))"
    }

    static func deleteFile(subscribeKey: String, channel: String, id: String, name: String) -> PubNubRequest {
        PubNubRequest(operation: .deleteFile, method: "DELETE", path: filePath(subscribeKey: subscribeKey, channel: channel, id: id, name: name),
                      channels: [channel])
    }

    static func downloadFile(subscribeKey: String, channel: String, id: String, name: String) -> PubNubRequest {
        PubNubRequest(operation: .downloadFile, path: filePath(subscribeKey: subscribeKey, channel: channel, id: id, name: name),
                      channels: [channel])
    }

    /// `{"data":{"id","name"},"file_upload_request":{"url","form_fields":[{"key","value"}]}}`.
    static func uploadForm(_ body: JSONValue) -> FileUploadForm? {
        guard let id = body["data"]?["id"]?.stringValue, let name = body["data"]?["name"]?.stringValue,
            let request = body["file_upload_request"], let url = request["url"]?.stringValue,
            let fields = request["form_fields"]?.arrayValue
        else { return nil }
        var pairs: [(key: String, value: String)] = []
        for field in fields {
            guard let key = field["key"]?.stringValue, let value = field["value"]?.stringValue else { return nil }
            pairs.append((key, value))
        }
        return FileUploadForm(id: id, name: name, url: url, fields: pairs)
    }

    /// `{"data":[{"name","id","size","created"}],"next","count"}`.
    static func list(_ body: JSONValue) -> PNListFilesResult? {
        guard let items = body["data"]?.arrayValue else { return nil }
        var files: [PNFileInfo] = []
        for item in items {
            guard let id = item["id"]?.stringValue, let name = item["name"]?.stringValue else { return nil }
            files.append(PNFileInfo(id: id, name: name, size: Int(item["size"]?.int64Value ?? 0), created: item["created"]?.stringValue ?? ""))
        }
        return PNListFilesResult(files: files, next: body["next"]?.stringValue, count: Int(body["count"]?.int64Value ?? Int64(files.count)))
    }
}
